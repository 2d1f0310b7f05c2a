/**
 * Cost receipts and budgets through the real CLI: a run whose stand-in agent prints a Claude
 * Code stream-json `result` (usage per model, its own cost) shows a receipt per iteration and
 * their sum in `ralph show`, and a run whose `limits.maxCostUsd` is below one iteration's cost
 * stops at the next step with the budget's stop reason; a project's spend today holds its next
 * run to `limits.maxCostUsdPerProjectDay`.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CostReceipt } from '../../lambdas/core/schemas/cost-receipt.js';
import type { RunRecord } from '../../lambdas/core/schemas/run.js';
import { jsonOf, useCliScratch } from '../support/cli.js';

const AGENTS = join(import.meta.dirname, '..', 'fixtures', 'agents');
const scratch = useCliScratch('ralph-receipts-');

const prd = {
  project: 'Shop',
  branchName: 'ralph/receipts',
  description: 'Small modules',
  userStories: ['Cart', 'Orders'].map((name, index) => ({
    id: `US-00${index + 1}`,
    title: `${name} module`,
    description: `As a shopper I want a ${name.toLowerCase()} module in src.`,
    acceptanceCriteria: ['The module exists'],
    priority: index + 1,
    passes: false,
    notes: '',
  })),
};

const agent = { command: `node ${join(AGENTS, 'claude-like-agent.mjs')}` };
const gates = [{ name: 'test', command: 'node -e "process.exit(0)"' }];
// No review iteration: one iteration per story.
const control = { quality: { maxReviewIterations: 0 } };

/** Runs a repository with `config` and returns the run's id and its exit code. */
async function runWith(config: Record<string, unknown>): Promise<string> {
  const repo = await scratch.repo({
    'prd.json': `${JSON.stringify(prd, null, 2)}\n`,
    'ralph.config.json': `${JSON.stringify(config, null, 2)}\n`,
  });
  const run = await scratch.ralph('run', '--repo', repo, '--json');
  expect(run.exitCode, run.stderr).not.toBe(2);
  return jsonOf<{ run: { runId: string } }>(run).run.runId;
}

interface Shown {
  run: RunRecord;
  costs: { receipts: CostReceipt[]; totalUsd: number };
}

let paidRun = '';
let budgetRun = '';

beforeAll(async () => {
  paidRun = await runWith({ agent, gates, control });
  budgetRun = await runWith({
    agent: { ...agent, env: { STAND_IN_COST_USD: '0.25' } },
    gates,
    control,
    limits: { maxCostUsd: 0.1 },
  });
});

describe('cost receipts in the CLI', () => {
  it('ralph show RUN prints a receipt line per model and role, and the sum', async () => {
    // Act
    const shown = await scratch.ralph('show', paidRun);

    // Assess
    expect(shown.exitCode, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/cost receipts \(prices as of \d{4}-\d{2}-\d{2}\)/);
    expect(shown.stdout).toMatch(
      /│ 1 +│ US-001 +│ stand-in-large +│ agent +│ 9,200 +│ 400 +│ \$0\.0400 +│ reported +│/,
    );
    expect(shown.stdout).toMatch(
      /│ 2 +│ US-002 +│ stand-in-small +│ agent +│ 300 +│ 50 +│ \$0\.0100 +│ reported +│/,
    );
    expect(shown.stdout).toContain('run cost  $0.1000 over 2 receipts');
    expect(shown.stdout).not.toContain('\u001b[');
  });

  it("ralph show RUN --iteration N prints that iteration's receipt and its total", async () => {
    const shown = await scratch.ralph('show', paidRun, '--iteration', '2');
    expect(shown.exitCode, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/│ 2 +│ US-002 +│ stand-in-large +│ agent +│/);
    expect(shown.stdout).not.toMatch(/│ 1 +│ US-001 /);
    expect(shown.stdout).toContain('iteration cost  $0.0500');
  });

  it('ralph show RUN --json carries the receipts and their sum', async () => {
    // Act
    const shown = jsonOf<Shown>(await scratch.ralph('show', paidRun, '--json'));

    // Assess
    expect(shown.run.costUsd).toBe(0.1);
    expect(shown.costs.totalUsd).toBe(0.1);
    expect(shown.costs.receipts.map((receipt) => [receipt.iteration, receipt.totalUsd])).toEqual([
      [1, 0.05],
      [2, 0.05],
    ]);
    expect(shown.costs.receipts[0]?.gates).toEqual([{ name: 'test', passed: true }]);
  });

  it('a run over limits.maxCostUsd stops at its next step with the budget stop reason', async () => {
    // Act
    const shown = jsonOf<Shown>(await scratch.ralph('show', budgetRun, '--json'));
    const text = await scratch.ralph('show', budgetRun);

    // Assess: one iteration ran; the second story never started.
    expect(shown.run.status).toBe('aborted');
    expect(shown.run.stopReason).toBe(
      'cost budget reached: $0.2500 of $0.1000 (limits.maxCostUsd); 1 of 2 stories pass',
    );
    expect(shown.costs.receipts).toHaveLength(1);
    expect(text.stdout).toContain('run cost  $0.2500 over 1 receipt (limits.maxCostUsd $0.1000)');
  });

  it('a run of a project over limits.maxCostUsdPerProjectDay stops before its first iteration', async () => {
    // Prepare: the two runs above spent $0.10 and $0.25 of project shop's day.
    const thirdRun = await runWith({
      agent,
      gates,
      control,
      limits: { maxCostUsdPerProjectDay: 0.3 },
    });

    // Act
    const shown = jsonOf<Shown>(await scratch.ralph('show', thirdRun, '--json'));

    // Assess
    expect(shown.run.status).toBe('aborted');
    expect(shown.run.stopReason).toMatch(
      /^cost budget reached: the project spent \$0\.3500 on \d{4}-\d{2}-\d{2} of \$0\.3000 a day \(limits\.maxCostUsdPerProjectDay\)/,
    );
    expect(shown.run.iterationsCompleted).toBe(0);
    expect(shown.costs).toEqual({ receipts: [], totalUsd: 0 });
  });
});
