/**
 * Learning across iterations, runs and projects, end to end on the local stack: a stand-in
 * agent (it says so in its output) repeats one mistake unless its prompt carries a lesson
 * about it; the gate catches the mistake. What the loop injects is all it can learn from.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';
import {
  RunLearningReportSchema,
  type RunLearningReport,
} from '../../lambdas/core/schemas/learning.js';
import type { RunConfigInput } from '../../lambdas/core/schemas/config.js';
import type { Prd } from '../../lambdas/core/schemas/prd.js';
import { projectLearningReport } from '../../lambdas/core/runs/learning-reports.js';
import { useLocalStack } from '../support/e2e-stack.js';
import { makeGitRepo } from '../support/git-repo.js';
import { runToEnd, submitLocalRun } from '../support/local-runs.js';

const AGENTS = join(import.meta.dirname, '..', 'fixtures', 'agents');
const AGENT = `node ${join(AGENTS, 'repeating-agent.mjs')}`;
const GATE = `node ${join(AGENTS, 'check-strict.mjs')}`;

function prd(project: string, stories: [string, string][]): Prd {
  return {
    project,
    branchName: 'ralph/modules',
    description: 'Small modules',
    userStories: stories.map(([title, description], index) => ({
      id: `US-00${index + 1}`,
      title,
      description,
      acceptanceCriteria: ['The lint gate passes'],
      priority: index + 1,
      passes: false,
      notes: '',
    })),
  };
}

const SHOP = prd('Shop', [
  ['Cart module', 'As a shopper I want a cart module in src.'],
  ['Orders module', 'As a shopper I want an orders module in src.'],
  ['Invoices module', 'As a shopper I want an invoices module in src.'],
]);

function config(control: string[]): RunConfigInput {
  return {
    agent: { command: AGENT },
    gates: [{ name: 'lint', command: GATE }],
    limits: { maxIterations: 10 },
    evaluation: { enabled: false },
    // The stand-in writes no tests: its passes would go to review, which is not what is measured.
    control: { quality: { maxReviewIterations: 0 } },
    learning: { control: { share: 0, tasks: control } },
  };
}

describe('Learning across runs', () => {
  const stack = useLocalStack();
  const reportOf = async (runId: string): Promise<RunLearningReport> =>
    RunLearningReportSchema.parse(
      JSON.parse(
        await stack().deps.artefacts.getText(
          artefactKeys.runArtefact(runId, 'learning-report.json'),
        ),
      ),
    );
  const promptOf = (runId: string, iteration: number) =>
    stack().deps.artefacts.getText(artefactKeys.iteration(runId, iteration, 'prompt.md'));
  const repo = async (of: Prd) =>
    (
      await makeGitRepo({
        'prd.json': `${JSON.stringify(of, null, 2)}\n`,
        'src/index.js': "'use strict';\nmodule.exports = {};\n",
      })
    ).path;

  it('learns a lesson in run 1, promotes it, and run 2 never meets the mistake', async () => {
    // Act: run 1, with the invoices story in the control share.
    const first = await submitLocalRun(stack(), {
      repo: await repo(SHOP),
      prd: SHOP,
      config: config(['US-003']),
    });
    const run1 = await runToEnd(stack(), first);

    // Assess run 1: the mistake twice (US-001, and US-003 that was given nothing), avoided
    // once with the hint injected (US-002).
    expect(run1.run.status).toBe('completed');
    expect(run1.iterations.map((it) => [it.taskId, it.outcome])).toEqual([
      ['US-001', 'gates_failed'],
      ['US-001', 'passed'],
      ['US-002', 'passed'],
      ['US-003', 'gates_failed'],
      ['US-003', 'passed'],
    ]);
    const hints = await stack().learning.listHints(first);
    expect(hints.map((hint) => hint.hintId)).toEqual(['h2', 'h5']);
    expect(hints[0]?.text).toContain("Start every module in src/ with 'use strict'");
    expect(run1.iterations[2]?.learning).toMatchObject({
      control: false,
      injected: [{ kind: 'hint', id: 'h2' }],
    });
    expect(await promptOf(first, 3)).toContain('## Lessons from earlier iterations');
    expect(run1.iterations[3]?.learning).toMatchObject({ control: true, injected: [] });
    expect(await promptOf(first, 4)).not.toContain('## Lessons from earlier iterations');
    expect(await promptOf(first, 1)).not.toContain('Lessons');
    const transcript = await stack().deps.artefacts.getText(
      artefactKeys.iteration(first, 1, 'transcript.jsonl'),
    );
    expect(transcript).toContain('stand-in agent');

    // The hint group was promoted at the run's end.
    const rules = await stack().learning.listRules(run1.run.projectId);
    expect(rules).toHaveLength(1);
    expect(rules[0]).toMatchObject({
      status: 'active',
      scopePattern: 'src/**',
      category: 'feature',
    });
    expect(rules[0]?.sourceHints).toEqual([`${first}/h2`, `${first}/h5`]);
    const report1 = await reportOf(first);
    expect(report1.rulesCreated).toEqual([rules[0]?.ruleId]);
    // What the run taught the registry: the fix, the category's approach, the code it added.
    expect(report1.patternsAdded.map((id) => id.replace(/-[0-9a-f]{12}$/, ''))).toEqual(
      expect.arrayContaining(['err', 'success-feature', 'tmpl']),
    );
    expect(report1.effect.groups.control).toMatchObject({ tasks: 1, meanIterationsToPass: 2 });
    expect(report1.effect.groups.injected).toMatchObject({ tasks: 1, meanIterationsToPass: 1 });

    // Act: run 2 of the same project, nothing held back.
    const second = await submitLocalRun(stack(), {
      repo: await repo(SHOP),
      prd: SHOP,
      config: config([]),
    });
    const run2 = await runToEnd(stack(), second);

    // Assess run 2: it started with the rule, never met the mistake, took fewer iterations.
    expect(run2.iterations.map((it) => [it.taskId, it.outcome])).toEqual([
      ['US-001', 'passed'],
      ['US-002', 'passed'],
      ['US-003', 'passed'],
    ]);
    expect(run2.iterations.length).toBeLessThan(run1.iterations.length);
    expect(await promptOf(second, 1)).toContain('## Project rules');
    for (const iteration of run2.iterations)
      expect(iteration.learning?.injected).toContainEqual({ kind: 'rule', id: rules[0]?.ruleId });

    // The project's report compares injected tasks with the control, and says it is too few.
    const project = await projectLearningReport(stack().deps, run1.run.projectId);
    expect(project.groups.injected).toMatchObject({ tasks: 4, passed: 4, meanIterationsToPass: 1 });
    expect(project.groups.control).toMatchObject({ tasks: 1, passed: 1, meanIterationsToPass: 2 });
    expect(project.conclusive).toBe(false);
    expect(project.conclusion).toMatch(/too few tasks to conclude: 4 with injection, 1 control/);
  });

  it("retrieves project A's error→fix pattern in project B's run through the organisation", async () => {
    // Prepare: project A's runs above taught the organisation's registry; B is new.
    const other = prd('Billing', [
      [
        'Ledger module',
        'As an accountant I want a ledger module in src that starts in strict mode.',
      ],
    ]);
    const orgPatterns = await stack().learning.listPatterns('org');
    const errorFix = orgPatterns.find((pattern) => pattern.type === 'error');
    expect(errorFix?.body).toContain("'use strict'");
    const before = errorFix!;

    // Act
    const runId = await submitLocalRun(stack(), {
      repo: await repo(other),
      prd: other,
      config: config([]),
    });
    const run = await runToEnd(stack(), runId);

    // Assess: the pattern was in its first prompt, from the organisation's scope, and the
    // mistake was avoided.
    expect(run.run.projectId).not.toBe('shop');
    expect(run.iterations[0]?.learning?.injected).toContainEqual({
      kind: 'pattern',
      id: errorFix?.patternId,
      scope: 'org',
    });
    expect(await promptOf(runId, 1)).toContain('## Cross-loop patterns');
    expect(run.iterations.map((it) => it.outcome)).toEqual(['passed']);
    // Its use was counted where it came from.
    const used = await stack().learning.getPattern('org', errorFix!.patternId);
    expect(used).toMatchObject({ uses: before.uses + 1, successes: before.successes + 1 });
  });
});
