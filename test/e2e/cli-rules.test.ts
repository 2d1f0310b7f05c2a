/**
 * `ralph rules` on the local stack: rules seeded through the stack's learning store are
 * listed (every project a route names, or one), shown, deprecated over the version read
 * (once: again is exit 4), and summed up by category and promotions.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ProjectRule } from '../../lambdas/core/schemas/learning.js';
import { openLocalStack } from '../../local/local-stack.js';
import { jsonOf, useCliScratch } from '../support/cli.js';
import { makeProjectRule } from '../support/learning-records.js';

const scratch = useCliScratch('ralph-rules-');

const rules = [
  makeProjectRule(),
  makeProjectRule({
    ruleId: 'r-test-fixtures',
    category: 'testing',
    scopePattern: undefined,
    constraint: 'Reset the fixtures between tests',
    promotionCount: 3,
  }),
  makeProjectRule({ projectId: 'web', ruleId: 'r-lint-imports', category: 'testing' }),
];

beforeAll(async () => {
  for (const project of ['shop', 'web']) {
    const file = join(scratch.dataDir, `${project}.json`);
    await writeFile(
      file,
      JSON.stringify({
        matches: [{ kind: 'sentry-project', key: project }],
        repo: `git@github.com:acme/${project}.git`,
      }),
    );
    expect((await scratch.ralph('projects', 'set', project, file)).exitCode).toBe(0);
  }
  const stack = await openLocalStack({ dataDir: scratch.dataDir });
  try {
    for (const rule of rules) await stack.learning.saveRule(rule, undefined);
  } finally {
    await stack.close();
  }
});

const listed = async (...args: string[]) =>
  jsonOf<{ rules: ProjectRule[] }>(await scratch.ralph('rules', 'list', '--json', ...args)).rules;

describe('ralph rules', () => {
  it("lists every project's rules, or one project's", async () => {
    const list = await scratch.ralph('rules', 'list');
    expect(list.exitCode, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/shop\s*│\s*r-test-fixtures\s*│\s*testing\s*│\s*active\s*│\s*3/);
    expect((await listed()).map((rule) => `${rule.projectId} ${rule.ruleId}`)).toEqual([
      'shop r-test-fixtures',
      'shop r-typecheck-ts2304',
      'web r-lint-imports',
    ]);
    expect((await listed('--project', 'web')).map((rule) => rule.ruleId)).toEqual([
      'r-lint-imports',
    ]);
  });

  it('shows a rule field by field; an unknown one is exit 4', async () => {
    const show = await scratch.ralph('rules', 'show', 'r-typecheck-ts2304', '--project', 'shop');
    expect(show.exitCode, show.stderr).toBe(0);
    for (const line of [
      'rule r-typecheck-ts2304 of project shop (version 1)',
      '  status      active',
      '  files       src/**',
      '  constraint  Import every name you use; run the typecheck before committing',
      '  from hints  run-a/h3, run-a/h5',
    ])
      expect(show.stdout).toContain(line);
    const missing = await scratch.ralph('rules', 'show', 'r-nope', '--project', 'shop');
    expect(missing.exitCode).toBe(4);
    expect(missing.stderr).toContain('project shop has no rule r-nope');
  });

  it('deprecates a rule over the version read, with the reason; a second time is exit 4', async () => {
    const deprecate = await scratch.ralph(
      'rules',
      'deprecate',
      'r-typecheck-ts2304',
      '--project',
      'shop',
      '--reason',
      'the linter checks it now',
    );
    expect(deprecate.exitCode, deprecate.stderr).toBe(0);
    expect(deprecate.stdout).toContain(
      'rule r-typecheck-ts2304 of project shop deprecated (version 2)',
    );
    const show = await scratch.ralph('rules', 'show', 'r-typecheck-ts2304', '--project', 'shop');
    expect(show.stdout).toContain('  status      deprecated: the linter checks it now');
    const again = await scratch.ralph(
      'rules',
      'deprecate',
      'r-typecheck-ts2304',
      '--project',
      'shop',
    );
    expect(again.exitCode).toBe(4);
    expect(again.stderr).toContain('is deprecated already (the linter checks it now)');
    expect(
      (await scratch.ralph('rules', 'deprecate', 'x', '--project', 'Not valid!')).exitCode,
    ).toBe(2);
  });

  it('sums rules up by category and lists the most promoted', async () => {
    const stats = await scratch.ralph('rules', 'stats');
    expect(stats.exitCode, stats.stderr).toBe(0);
    expect(stats.stdout).toContain('projects shop, web: 3 rules (2 active, 1 deprecated)');
    expect(stats.stdout).toMatch(
      /rules by category:\n {2}testing +2 \(2 active\)\n {2}bugfix +1 \(0 active\)/,
    );
    expect(stats.stdout).toContain('most promoted:\n  shop r-test-fixtures: 3 promotions');
    const one = jsonOf<{ total: number }>(
      await scratch.ralph('rules', 'stats', '--project', 'web', '--json'),
    );
    expect(one.total).toBe(1);
  });
});
