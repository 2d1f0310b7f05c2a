import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../lib/paths.js';
import type { SpawnServer } from '../../agent/spawn-client.js';

const scratch = mkdtempSync(join(tmpdir(), 'ralph-spawn-bundle-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The files agent/Dockerfile copies beside the runner bundle, from its COPY line. */
function dockerfileSpawnServerFiles(): string[] {
  const dockerfile = readFileSync(join(REPO_ROOT, 'agent', 'Dockerfile'), 'utf8');
  const line = dockerfile.split('\n').find((text) => /^COPY .*spawn-server\.mjs/.test(text));
  const parts = (line ?? '').split(/\s+/).slice(1);
  expect(parts.at(-1)).toBe('/app/');
  return parts.slice(0, -1);
}

/** spawn-client.ts bundled the way agent/Dockerfile bundles the runner: /app/main.mjs. */
async function bundleSpawnClient(app: string): Promise<{ server: SpawnServer }> {
  const outfile = join(app, 'main.mjs');
  await build({
    entryPoints: [join(REPO_ROOT, 'agent', 'spawn-client.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    outfile,
    logLevel: 'silent',
  });
  const module = (await import(pathToFileURL(outfile).href)) as {
    SpawnServer: new () => SpawnServer;
  };
  return { server: new module.SpawnServer() };
}

const gitVersion = {
  file: 'git',
  args: ['--version'],
  cwd: tmpdir(),
  env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  timeoutMs: 10_000,
  killGraceMs: 1_000,
  maxOutputBytes: 1024 * 1024,
};

describe('The spawn server in the runner image', () => {
  it('is found beside the bundle when the files the Dockerfile copies are there', async () => {
    // Prepare
    const app = mkdtempSync(join(scratch, 'app-'));
    for (const file of dockerfileSpawnServerFiles())
      copyFileSync(join(REPO_ROOT, file), join(app, basename(file)));
    const { server } = await bundleSpawnClient(app);

    // Act
    const result = await server.run(gitVersion);

    // Assess
    expect(result.stdout.toString()).toMatch(/^git version /);
    expect(server.usesServer).toBe(true);
    expect(server.serverPid).toBeGreaterThan(0);
    server.close();
  });

  it('runs git in-process when a bundle was shipped without them', async () => {
    // Prepare
    const app = mkdtempSync(join(scratch, 'bare-'));
    const { server } = await bundleSpawnClient(app);

    // Act
    const result = await server.run(gitVersion);

    // Assess
    expect(result.stdout.toString()).toMatch(/^git version /);
    expect(server.usesServer).toBe(false);
  });
});
