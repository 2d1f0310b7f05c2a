import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROMPT_TEMPLATES_SOURCE } from '../../lib/bundle-settings.js';
import { copyPromptTemplates } from '../../lib/function-defaults.js';
import { REPO_ROOT } from '../../lib/paths.js';
import { BUNDLED_TEMPLATES_DIR } from '../../lambdas/adapters/prompt-template-files.js';

/** What a bundle exposes for the test: where it looked, and a rendered template. */
const ENTRY = `
import { promptTemplates } from ${JSON.stringify(join(REPO_ROOT, 'lambdas/adapters/prompt-template-files.ts'))};
export function probe() {
  try {
    const templates = promptTemplates();
    return { directory: templates.directory, role: templates.render('role-debugger', {}) };
  } catch (error) {
    return { error: String(error) };
  }
}
`;

/** Bundles the template loader as esbuild bundles a handler: one ESM file, index.mjs. */
async function bundle(outdir: string): Promise<string> {
  const entry = join(outdir, 'entry.mjs');
  writeFileSync(entry, ENTRY);
  const outfile = join(outdir, 'out', 'index.mjs');
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    outfile,
    logLevel: 'silent',
  });
  return outfile;
}

async function probe(
  bundleFile: string,
): Promise<{ directory?: string; role?: string; error?: string }> {
  const module = (await import(pathToFileURL(bundleFile).href)) as {
    probe: () => { directory?: string; role?: string; error?: string };
  };
  return module.probe();
}

const templateFiles = (directory: string): string[] => readdirSync(directory).sort();

describe('Prompt templates in bundles', () => {
  let scratch: string;

  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'ralph-prompt-bundle-'));
  });

  afterAll(() => {
    rmSync(scratch, { recursive: true, force: true });
  });

  describe('Function: copyPromptTemplates', () => {
    it('copies the templates directory beside the bundle, as templates/', () => {
      // Prepare
      const outputDir = mkdtempSync(join(scratch, 'asset-'));

      // Act
      for (const command of copyPromptTemplates(REPO_ROOT, outputDir))
        execFileSync('bash', ['-c', command], { cwd: REPO_ROOT });

      // Assess
      expect(templateFiles(join(outputDir, 'templates'))).toEqual(
        templateFiles(BUNDLED_TEMPLATES_DIR),
      );
      expect(join(REPO_ROOT, PROMPT_TEMPLATES_SOURCE, '/')).toBe(BUNDLED_TEMPLATES_DIR);
    });

    it('quotes the paths, so a directory with spaces works', () => {
      // Prepare
      const outputDir = mkdtempSync(join(scratch, 'with space-'));

      // Act
      for (const command of copyPromptTemplates(REPO_ROOT, outputDir))
        execFileSync('bash', ['-c', command], { cwd: REPO_ROOT });

      // Assess
      expect(templateFiles(join(outputDir, 'templates'))).toContain('iteration.md');
    });
  });

  describe('an esbuild bundle of the prompt code', () => {
    it('reads the templates beside itself once they are copied there', async () => {
      // Prepare
      const outdir = mkdtempSync(join(scratch, 'bundle-'));
      const bundleFile = await bundle(outdir);
      for (const command of copyPromptTemplates(REPO_ROOT, join(outdir, 'out')))
        execFileSync('bash', ['-c', command], { cwd: REPO_ROOT });

      // Act
      const result = await probe(bundleFile);

      // Assess
      expect(result.error).toBeUndefined();
      expect(result.directory).toBe(join(outdir, 'out', 'templates', '/'));
      expect(result.role).toMatch(/^You are the DEBUGGER for this iteration\./);
    });

    it('fails loudly, naming the directory, when they were not copied', async () => {
      // Prepare
      const outdir = mkdtempSync(join(scratch, 'bare-'));
      const bundleFile = await bundle(outdir);

      // Act
      const result = await probe(bundleFile);

      // Assess
      expect(result.error).toContain('PromptTemplateError');
      expect(result.error).toContain(
        `cannot read the templates directory ${join(outdir, 'out', 'templates', '/')}`,
      );
    });
  });

  describe('agent/Dockerfile', () => {
    it('copies the templates beside the runner bundle', () => {
      // Prepare
      const dockerfile = readFileSync(join(REPO_ROOT, 'agent', 'Dockerfile'), 'utf8');

      // Act
      const outfile = /--outfile=(\S+)/.exec(dockerfile)?.[1];
      const copy = /^COPY (\S+) (\S+)$/m.exec(dockerfile.slice(dockerfile.indexOf('--outfile=')));

      // Assess
      expect(outfile).toBe('/app/main.mjs');
      expect(copy?.[1]).toBe(`${PROMPT_TEMPLATES_SOURCE}/`);
      expect(copy?.[2]).toBe('/app/templates/');
      // The runtime stage takes the whole of /app from the build stage.
      expect(dockerfile).toContain('COPY --from=build /app /app');
    });
  });
});
