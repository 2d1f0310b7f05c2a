/**
 * The Advance step deciding and planning, against dynalite and s3rver through the real
 * adapters: the decision it returns (as decideNext makes it from what is stored), the
 * next iteration it plans when the run goes on (the same record and plan.json whether it
 * also recorded an iteration or not), and a run that evaluates.
 */
import { describe, expect, it } from 'vitest';
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';
import { decideNext } from '../../lambdas/core/loop/decide-next.js';
import { advanceStep } from '../../lambdas/core/steps/advance.js';
import type { IterationResult } from '../../lambdas/core/schemas/iteration-result.js';
import type { TaskRecord } from '../../lambdas/core/schemas/task.js';
import { makeGate } from '../support/records.js';
import { makeRunInvestigation } from '../support/investigation-records.js';
import {
  deps,
  failed,
  missingTests,
  nextRunId,
  readBack,
  record,
  recorded,
  result,
  stored,
  storyTasks,
  useAdvanceStores,
  withFirstComplete,
  type Setup,
} from '../support/advance-runs.js';

useAdvanceStores();

describe('Function: advanceStep', () => {
  describe('the decision when the run does not evaluate', () => {
    interface Case {
      name: string;
      report: (runId: string) => IterationResult;
      setup?: (runId: string) => Setup;
      action: string;
      reason: string;
    }
    const cases: Case[] = [
      {
        name: 'continues after a pass with stories left',
        report: (runId) => result(runId, 1),
        action: 'continue',
        reason: '1 of 2 stories pass',
      },
      {
        name: 'completes once the last story passes',
        report: (runId) => result(runId, 2, { taskId: 'US-002' }),
        setup: (runId) => ({ tasks: withFirstComplete(runId) }),
        action: 'complete',
        reason: 'all 2 stories done; no gates: nothing was verified',
      },
      {
        name: 'continues when the last story passes with findings (it is in review)',
        report: (runId) => result(runId, 2, { taskId: 'US-002', findings: [missingTests] }),
        setup: (runId) => ({ tasks: withFirstComplete(runId) }),
        action: 'continue',
        reason: '1 of 2 stories pass, 1 in review',
      },
      {
        name: 'continues after iteration 2 of at most 3',
        report: (runId) => result(runId, 2),
        setup: () => ({ config: { limits: { maxIterations: 3 } } }),
        action: 'continue',
        reason: '1 of 2 stories pass',
      },
      {
        name: 'stops at max_iterations after iteration 3 of at most 3',
        report: (runId) => result(runId, 3),
        setup: () => ({ config: { limits: { maxIterations: 3 } } }),
        action: 'max_iterations',
        reason: 'reached the limit of 3 iterations; 1 of 2 stories pass',
      },
      {
        name: 'continues after the first failure of at most 2 in a row',
        report: (runId) => failed(runId, 1),
        setup: () => ({ config: { limits: { maxConsecutiveFailures: 2 } } }),
        action: 'continue',
        reason: '0 of 2 stories pass',
      },
      {
        name: 'aborts after the second failure of at most 2 in a row',
        report: (runId) => failed(runId, 2),
        setup: () => ({
          config: { limits: { maxConsecutiveFailures: 2 } },
          consecutiveFailures: 1,
        }),
        action: 'abort',
        reason:
          '2 iterations in a row ended without a counted commit (limit 2); 0 of 2 stories pass',
      },
    ];

    it.each(cases)(
      '$name, as decideNext decides from what is stored',
      async ({ report, setup, action, reason }) => {
        // Prepare
        const runId = nextRunId('decide');
        const written = report(runId);

        // Act
        const { output, run, tasks } = await recorded(written, setup?.(runId));
        const assessed = decideNext(run, tasks);

        // Assess: a run that goes on has its next iteration planned.
        expect(output).toStrictEqual({
          runId,
          segment: 1,
          iteration: written.iteration + (action === 'continue' ? 1 : 0),
          action,
          reason,
          ...(action === 'continue' ? { planned: true } : {}),
        });
        expect({ action: assessed.action, reason: assessed.reason }).toEqual({
          action: output.action,
          reason: output.reason,
        });
      },
    );

    it('returns the same decision from a retried step, counting nothing again', async () => {
      // Prepare: the first attempt recorded everything; its reply was lost.
      const runId = nextRunId('decide-retry');
      const {
        output: first,
        run,
        tasks,
      } = await recorded(result(runId, 2, { taskId: 'US-002' }), {
        tasks: withFirstComplete(runId),
      });

      // Act
      const again = await record(runId, 2);

      // Assess
      expect(first).toMatchObject({ action: 'complete' });
      expect(again).toStrictEqual(first);
      expect(await readBack(runId)).toEqual({ run, tasks });
      expect(run).toMatchObject({ version: 2, iterationsCompleted: 2, storiesPassed: 2 });
    });
  });

  describe('planning the next iteration when the run goes on', () => {
    /** iteration 2's record and plan.json, with the run id written as RUN. */
    async function planOf(runId: string) {
      const record = await deps.runs.getIteration(runId, 2);
      const plan = await deps.artefacts.getText(artefactKeys.iteration(runId, 2, 'plan.json'));
      return JSON.parse(JSON.stringify({ record, plan }).replaceAll(runId, 'RUN')) as unknown;
    }

    it.each([
      ['a pass', (runId: string) => result(runId, 1)],
      [
        'a failure (the plan carries its gates)',
        (runId: string) => ({
          ...failed(runId, 1),
          gates: [
            makeGate({
              outputTail:
                "src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.",
            }),
          ],
        }),
      ],
    ])(
      "writes, after %s, the record and plan.json a segment's first step would write",
      async (_label, report) => {
        // Prepare: the same run twice; the second records only, then plans on its own.
        const here = nextRunId('plan-here');
        const there = nextRunId('plan-there');
        await stored(report(here));
        await stored(report(there));

        // Act
        const output = await record(here, 1);
        await record(there, 1, deps, { plan: false });
        const prepared = await advanceStep(deps, { runId: there, segment: 1 });

        // Assess
        expect(output).toMatchObject({ iteration: 2, action: 'continue', planned: true });
        expect(prepared.iteration).toBe(2);
        const plan = await planOf(here);
        expect(plan).toEqual(await planOf(there));
        if (report(here).outcome !== 'passed') expect(JSON.stringify(plan)).toContain('TS2322');
        const [ran, prepareRan] = await Promise.all([readBack(here), readBack(there)]);
        expect(ran.run).toMatchObject({ iterationsStarted: 2, lastRecordedIteration: 1 });
        expect(ran.run.version).toBe(prepareRan.run.version - 1);
      },
    );

    it('picks a blocked story again when it is the only one left, in a new stint', async () => {
      // Prepare: US-002 is blocked (once, below the limit); US-001 passes now.
      const runId = nextRunId('plan-blocked');
      const [first, second] = storyTasks(runId);
      if (!first || !second) throw new Error('two stories expected');
      const blocked: TaskRecord = {
        ...second,
        status: 'blocked',
        attempts: 3,
        timesBlocked: 1,
        block: { reason: 'tests keep failing', at: '2025-01-15T11:00:00.000Z' },
      };

      // Act
      const { output, run, tasks } = await recorded(result(runId, 1), {
        tasks: [first, blocked],
      });

      // Assess: picked again in the same step; its attempts so far are not the new stint's.
      expect(output).toStrictEqual({
        runId,
        segment: 1,
        iteration: 2,
        action: 'continue',
        reason: '1 of 2 stories pass',
        planned: true,
      });
      expect(run.iterationsStarted).toBe(2);
      expect(tasks[1]).toMatchObject({
        taskId: 'US-002',
        status: 'in_progress',
        stintStartAttempts: 3,
        timesBlocked: 1,
        block: { reason: 'tests keep failing' },
        version: 2,
      });
      expect(await deps.runs.getIteration(runId, 2)).toMatchObject({
        taskId: 'US-002',
        status: 'planned',
        mode: 'planner',
      });
    });
  });

  describe('a run that evaluates (after its evaluation steps)', () => {
    it('decides and plans, and says the next iteration is evaluated too', async () => {
      // Prepare / Act
      const runId = nextRunId('evaluate');
      const { output, run } = await recorded(result(runId, 1), {
        config: { evaluation: { enabled: true } },
      });

      // Assess
      expect(output).toStrictEqual({
        runId,
        segment: 1,
        iteration: 2,
        action: 'continue',
        reason: '1 of 2 stories pass',
        planned: true,
        evaluate: true,
      });
      expect(run).toMatchObject({ lastRecordedIteration: 1, iterationsStarted: 2 });
    });

    it('completes after its last story passed, saying how the evaluation stands', async () => {
      // Prepare / Act
      const runId = nextRunId('evaluate-last');
      const { output } = await recorded(result(runId, 2, { taskId: 'US-002' }), {
        config: { evaluation: { enabled: true } },
        tasks: withFirstComplete(runId),
      });

      // Assess
      expect(output).toStrictEqual({
        runId,
        segment: 1,
        iteration: 2,
        action: 'complete',
        reason:
          'all 2 stories done; no gates: nothing was verified; the evaluation has not converged',
      });
    });
  });

  describe('an investigate run', () => {
    it('says the next iteration goes to the pull-request step', async () => {
      // Prepare / Act
      const runId = nextRunId('investigate');
      const { output } = await recorded(result(runId, 1), {
        investigation: makeRunInvestigation(),
      });

      // Assess
      expect(output).toMatchObject({ action: 'continue', planned: true, investigate: true });
      expect(output).not.toHaveProperty('evaluate');
    });
  });
});
