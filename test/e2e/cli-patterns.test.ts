/**
 * `ralph patterns` on the local stack's registry: patterns seeded through the stack's
 * learning store are listed by type and filtered, shown whole, exported to a bundle and
 * imported into another data dir with nothing lost; bad bundles are refused with their
 * paths (exit 2) and write nothing; prune lists (dry run) then archives the failing and the
 * idle ones; --endpoint is refused.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PatternBundle } from '../../lambdas/core/learning/bundle.js';
import type { RegistryPattern } from '../../lambdas/core/schemas/learning.js';
import { openLocalStack } from '../../local/local-stack.js';
import { jsonOf, useCliScratch, type CliScratch } from '../support/cli.js';
import { makeProjectRule, makeRegistryPattern } from '../support/learning-records.js';

const here = useCliScratch('ralph-patterns-');
const elsewhere = useCliScratch('ralph-patterns-import-');

const DAY_MS = 24 * 60 * 60 * 1000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString();
const recent = { createdAt: daysAgo(30), lastUsedAt: daysAgo(2), updatedAt: daysAgo(2) };

const seeded = [
  makeRegistryPattern({ ...recent, successRate: 11 / 12, uses: 12, successes: 11 }),
  makeRegistryPattern({
    ...recent,
    patternId: 'pat-success-tests-first',
    type: 'success',
    title: 'Testing: write the failing test first',
    body: 'Write the test, see it fail, then implement',
    issue: undefined,
    category: 'testing',
    averageIterations: 2.5,
    tags: ['testing'],
    uses: 8,
    successes: 7,
    successRate: 7 / 8,
  }),
  makeRegistryPattern({
    ...recent,
    scope: 'project:shop',
    patternId: 'pat-anti-optimise-early',
    type: 'anti',
    title: 'Optimising before the tests pass',
    body: 'Make the tests pass first',
    uses: 10,
    successes: 3,
    successRate: 0.3,
  }),
  makeRegistryPattern({
    patternId: 'tmpl-password-hash',
    type: 'template',
    title: 'Hashing a password',
    body: 'Hash with a salt',
    template: { language: 'ts', code: 'const hash = await bcrypt.hash(password, 12);' },
    createdAt: daysAgo(200),
    lastUsedAt: daysAgo(120),
    updatedAt: daysAgo(120),
  }),
];

/** A project route for `shop`, so that its registry scope is one the data dir lists. */
async function routeShop(scratch: CliScratch): Promise<void> {
  const file = join(scratch.dataDir, 'shop-route.json');
  await writeFile(
    file,
    JSON.stringify({
      matches: [{ kind: 'sentry-project', key: 'shop-web' }],
      repo: 'git@github.com:acme/shop.git',
    }),
  );
  const set = await scratch.ralph('projects', 'set', 'shop', file);
  expect(set.exitCode, set.stderr).toBe(0);
}

async function listed(scratch: CliScratch, ...args: string[]): Promise<RegistryPattern[]> {
  const list = await scratch.ralph('patterns', 'list', '--json', ...args);
  expect(list.exitCode, list.stderr).toBe(0);
  return jsonOf<{ patterns: RegistryPattern[] }>(list).patterns;
}

const ids = (patterns: readonly RegistryPattern[]) => patterns.map((p) => p.patternId);

beforeAll(async () => {
  await routeShop(here);
  await routeShop(elsewhere);
  const stack = await openLocalStack({ dataDir: here.dataDir });
  try {
    for (const pattern of seeded) await stack.learning.savePattern(pattern, undefined);
    await stack.learning.saveRule(makeProjectRule(), undefined);
  } finally {
    await stack.close();
  }
});

describe('ralph patterns', () => {
  it('lists every scope by type, the best first, and filters by type, success rate, tag and scope', async () => {
    const list = await here.ralph('patterns', 'list');
    expect(list.exitCode, list.stderr).toBe(0);
    const text = list.stdout;
    for (const heading of [
      'Error patterns (1 total):',
      'Success patterns (1 total):',
      'Anti-patterns (1 total):',
      'Code templates (1 total):',
    ])
      expect(text).toContain(heading);
    expect(text.indexOf('Error patterns')).toBeLessThan(text.indexOf('Success patterns'));
    expect(text).toMatch(/pat-error-null-check-001\s*│\s*org\s*│\s*92%\s*│\s*12\s*│/);
    expect(text).toMatch(/pat-anti-optimise-early\s*│\s*project:shop\s*│\s*30%/);

    expect(ids(await listed(here))).toEqual([
      'pat-error-null-check-001',
      'pat-success-tests-first',
      'pat-anti-optimise-early',
      'tmpl-password-hash',
    ]);
    expect(ids(await listed(here, '--type', 'anti'))).toEqual(['pat-anti-optimise-early']);
    expect(ids(await listed(here, '--min-success-rate', '0.9'))).toEqual([
      'pat-error-null-check-001',
    ]);
    expect(ids(await listed(here, '--tag', 'typescript', '--tag', 'null-safety'))).toEqual([
      'pat-error-null-check-001',
      'pat-anti-optimise-early',
      'tmpl-password-hash',
    ]);
    expect(ids(await listed(here, '--scope', 'project:shop'))).toEqual(['pat-anti-optimise-early']);
  });

  it('refuses bad options as bad input (exit 2)', async () => {
    expect((await here.ralph('patterns', 'list', '--scope', 'team')).stderr).toContain(
      '--scope is invalid',
    );
    const share = await here.ralph('patterns', 'list', '--min-success-rate', '80');
    expect(share.exitCode).toBe(2);
    expect(share.stderr).toContain('expected a share from 0 to 1');
    expect((await here.ralph('patterns', 'list', '--type', 'fix')).exitCode).toBe(2);
  });

  it('shows every field of a pattern, its sources and its trend; an unknown id is exit 4', async () => {
    const show = await here.ralph('patterns', 'show', 'pat-success-tests-first');
    expect(show.exitCode, show.stderr).toBe(0);
    expect(show.stdout).toMatch(/^pattern pat-success-tests-first \(org, version 1\)/);
    for (const line of [
      '  type          success',
      '  title         Testing: write the failing test first',
      '  category      testing',
      '  effectiveness 88% success (7 of 8 uses), 2.5 iterations on average',
      '  sources (1):',
      '    run-a (project shop) 2026-02-01T10:00:00Z, iterations 2, 3',
      '  trend (1):',
      '    2026-02-01T10:00:00Z 100% after 1 use',
    ])
      expect(show.stdout).toContain(line);
    const template = await here.ralph('patterns', 'show', 'tmpl-password-hash');
    expect(template.stdout).toContain('const hash = await bcrypt.hash(password, 12);');
    const missing = await here.ralph('patterns', 'show', 'pat-nope');
    expect(missing.exitCode).toBe(4);
    expect(missing.stderr).toContain('no registry pattern pat-nope in org, project:shop');
  });

  it('exports a bundle, refuses to overwrite it, and imports it elsewhere with nothing lost', async () => {
    const file = join(here.dataDir, 'bundle.json');
    const exported = await here.ralph('patterns', 'export', '--output', file);
    expect(exported.exitCode, exported.stderr).toBe(0);
    expect(exported.stdout).toContain('exported 4 patterns and 1 rules of org, project:shop');
    const again = await here.ralph('patterns', 'export', '--output', file);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain('already exists; pass --force to overwrite it');

    const imported = await elsewhere.ralph('patterns', 'import', '--input', file);
    expect(imported.exitCode, imported.stderr).toBe(0);
    expect(imported.stdout).toContain('patterns: 4 added, 0 merged, 0 skipped');
    expect(imported.stdout).toContain('rules: 1 added, 0 merged, 0 skipped');

    // The second data dir exports what the first did, each source stamped with the bundle.
    const copy = join(elsewhere.dataDir, 'copy.json');
    expect((await elsewhere.ralph('patterns', 'export', '--output', copy)).exitCode).toBe(0);
    const first = JSON.parse(await readFile(file, 'utf8')) as PatternBundle;
    const second = JSON.parse(await readFile(copy, 'utf8')) as PatternBundle;
    const digest = jsonOf<{ digest: string }>(
      await elsewhere.ralph('patterns', 'import', '--input', file, '--json'),
    ).digest;
    expect(second.patterns).toEqual(
      first.patterns.map((pattern) => ({
        ...pattern,
        version: 1,
        sources: pattern.sources.map((source) => ({ ...source, bundle: digest })),
      })),
    );
    expect(second.rules).toEqual(first.rules);
    expect(second.source).toEqual(first.source);
  });

  it('imports the same bundle again as already present, writing nothing', async () => {
    const file = join(here.dataDir, 'bundle.json');
    const before = await listed(elsewhere);
    const again = await elsewhere.ralph('patterns', 'import', '--input', file);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout).toContain('patterns: 0 added, 0 merged, 4 skipped');
    expect(again.stdout).toContain('skipped org pat-error-null-check-001: already present');
    expect(await listed(elsewhere)).toEqual(before);
  });

  it('refuses a malformed bundle and one of another version with the paths (exit 2), writing nothing', async () => {
    const before = await listed(elsewhere);
    const bundle = JSON.parse(await readFile(join(here.dataDir, 'bundle.json'), 'utf8')) as {
      patterns: Record<string, unknown>[];
    };
    const malformed = join(elsewhere.dataDir, 'malformed.json');
    await writeFile(
      malformed,
      JSON.stringify({
        ...bundle,
        patterns: [
          { ...bundle.patterns[0], patternId: 'pat-new-one', tagz: [] },
          { ...bundle.patterns[1], patternId: 'pat-new-two', successRate: 1.5 },
        ],
      }),
    );
    const bad = await elsewhere.ralph('patterns', 'import', '--input', malformed);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain(`${malformed} is invalid:`);
    expect(bad.stderr).toContain('patterns[0].tagz: unknown key — did you mean tags?');
    expect(bad.stderr).toContain('patterns[1].successRate: Too big');

    const future = join(elsewhere.dataDir, 'future.json');
    await writeFile(future, JSON.stringify({ ...bundle, version: 2 }));
    const refused = await elsewhere.ralph('patterns', 'import', '--input', future, '--json');
    expect(refused.exitCode).toBe(2);
    expect(jsonOf<{ error: { issues: string[] } }>(refused).error.issues).toEqual([
      'version: 2 is not read here; this ralph reads bundle version 1',
    ]);
    expect(await listed(elsewhere)).toEqual(before);
  });

  it('prune --dry-run lists what would go and why, writing nothing; prune archives it', async () => {
    const dry = await here.ralph('patterns', 'prune', '--dry-run');
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('would archive 2 of the patterns in org, project:shop');
    expect(dry.stdout).toContain(
      'project:shop pat-anti-optimise-early: success rate 30% (3 of 10 uses) is below 50% after at least 3 uses',
    );
    expect(dry.stdout).toMatch(
      /org tmpl-password-hash: idle for 120 days \(last used .*\), more than 90/,
    );
    expect(await listed(here)).toHaveLength(4);

    const pruned = await here.ralph('patterns', 'prune', '--json');
    expect(pruned.exitCode, pruned.stderr).toBe(0);
    const archived = jsonOf<{ patterns: { patternId: string; archive?: string }[] }>(pruned);
    expect(archived.patterns.map((p) => p.patternId)).toEqual([
      'tmpl-password-hash',
      'pat-anti-optimise-early',
    ]);
    for (const pattern of archived.patterns)
      expect(pattern.archive).toMatch(/^registry\/archive\//);
    expect(ids(await listed(here))).toEqual([
      'pat-error-null-check-001',
      'pat-success-tests-first',
    ]);
    expect((await here.ralph('patterns', 'prune')).stdout).toContain('nothing to prune');
  });

  it('says these commands work on the local data directory only, with --endpoint (exit 2)', async () => {
    const remote = await here.ralph('patterns', 'list', '--endpoint', 'http://127.0.0.1:9');
    expect(remote.exitCode).toBe(2);
    expect(remote.stderr).toContain(
      'ralph patterns list works on the local data directory only for now',
    );
  });
});
