/**
 * `npm start -- investigate` end to end: `ralph example investigate` copies the example app
 * into the data dir, starts its GitHub double, saves a route, posts the recorded Sentry
 * issue signed to the hook route of a local server, follows the investigate run and ends
 * with the draft pull request on the double and the report. Twice on one data dir: each
 * invocation is a project and an issue of its own, so the second is not answered "fixed
 * already".
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InvestigationReport } from '../../lambdas/core/schemas/investigation-report.js';
import type { RunRecord } from '../../lambdas/core/schemas/run.js';
import { git } from '../support/git-repo.js';
import { jsonOf, runCli, type CliResult } from '../support/cli.js';

interface Shown {
  run: RunRecord;
  investigationReport: InvestigationReport | null;
}

describe('Example: ralph example investigate (npm start -- investigate)', () => {
  let dataDir: string;
  let first: CliResult;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'ralph-example-investigate-'));
    first = await runCli(['example', 'investigate', '--data-dir', dataDir]);
  }, 120_000);

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('says its agent and its GitHub are stand-ins', () => {
    const [agent, github] = first.stdout.split('\n');
    expect(agent).toContain('agent: scripted investigator (a deterministic stand-in, not a model)');
    expect(github).toMatch(/^GitHub double: http:\/\/127\.0\.0\.1:\d+ \(a local stand-in/);
  });

  it('ends with the draft pull request on the double and the report, exit 0', async () => {
    expect(first.exitCode, first.stderr).toBe(0);
    const url = /^GitHub double: (\S+)/m.exec(first.stdout)?.[1];
    expect(first.stdout).toMatch(/: recorded, queued, run r[\w-]+$/m);
    expect(first.stdout).toContain(
      "draft pull request #1 on the GitHub double: fix: TypeError: Cannot read properties of undefined (reading 'percent')",
    );
    expect(first.stdout).toContain(`${url}/example/shop/pull/1 (head ralph/fix/`);
    expect(first.stdout).toMatch(
      /investigation {2}1 of 1 errors analysed .* 1 pull request\(s\) opened/,
    );
    expect(first.stdout).toMatch(/│ ERR-\w+ +│ fix-verified │ high +│ #1 \S+ \(draft\) │/);
  });

  it('leaves the run stored with its report, and the fix on its branch in the copy', async () => {
    const runId = /run (r[\w-]+)$/m.exec(first.stdout)?.[1] ?? '';
    const shown = jsonOf<Shown>(await runCli(['show', runId, '--data-dir', dataDir, '--json']));
    expect(shown.run.status).toBe('completed');
    const [error] = shown.investigationReport?.errors ?? [];
    expect(error).toMatchObject({
      verdict: 'fix-verified',
      pullRequest: { number: 1, draft: true },
    });
    const repo = /^example repository: (.+)$/m.exec(first.stdout)?.[1] ?? '';
    const head = /\(head (ralph\/fix\/\w+) → main\)/.exec(first.stdout)?.[1] ?? '';
    expect(await git(repo, 'show', `${head}:src/cart.mjs`)).toContain(
      'return sum - (sum * (discount?.percent ?? 0)) / 100;',
    );
    expect(await git(repo, 'show', 'main:src/cart.mjs')).toContain('discount.percent) / 100');
  });

  it('opens a pull request again when run again on the same data dir', async () => {
    const again = await runCli(['example', 'investigate', '--data-dir', dataDir]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout).toContain('draft pull request #1 on the GitHub double');
  }, 120_000);
});
