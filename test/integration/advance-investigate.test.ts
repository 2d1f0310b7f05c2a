/**
 * The Advance step on an investigate run: a concluded investigation passes without a
 * commit on the run branch, completes its error's task, and the run completes with its
 * last error; evaluation is never asked for, even when the run's config enables it.
 */
import { describe, expect, it } from 'vitest';
import { InvestigateSettingsSchema } from '../../lambdas/core/schemas/project-route.js';
import type {
  InvestigationResult,
  RunInvestigation,
} from '../../lambdas/core/schemas/investigation.js';
import {
  nextRunId,
  recorded,
  result,
  useAdvanceStores,
  withFirstComplete,
} from '../support/advance-runs.js';

useAdvanceStores();

const investigation: RunInvestigation = {
  batchId: 'batch-1',
  projectId: 'shop',
  baseBranch: 'main',
  // The defaults: what a route that sets none gets.
  settings: InvestigateSettingsSchema.parse({}),
  errors: [
    { source: 'sentry', fingerprint: 'issue:1', taskId: 'US-001', score: 2 },
    { source: 'sentry', fingerprint: 'issue:2', taskId: 'US-002', score: 1 },
  ],
};

const concluded: InvestigationResult = {
  source: 'sentry',
  fingerprint: 'issue:1',
  verdict: 'no-fix',
  summary: 'no fix after 2 passes. Root cause: unknown',
  passes: [{ pass: 1, kind: 'analysis', changedFiles: [], agentExitCode: 0, durationMs: 5 }],
  chosenPass: 1,
  gatesBefore: [],
  gatesAfter: [],
  broken: [],
  correction: { attempted: false, succeeded: false },
};

/** An investigate iteration's result.json: passed, no commit on the run branch. */
function investigated(runId: string, iteration: number, taskId: string) {
  return result(runId, iteration, {
    taskId,
    commit: undefined,
    investigation: concluded,
    artefacts: { investigation: `runs/${runId}/iterations/${iteration}/investigation.json` },
  });
}

describe('Function: advanceStep — an investigate run', () => {
  it('counts a concluded investigation without a commit and plans the next error, unevaluated', async () => {
    // Prepare / Act
    const runId = nextRunId('investigate');
    const { output, run, tasks } = await recorded(investigated(runId, 1, 'US-001'), {
      investigation,
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
      // The next iteration goes through the pull-request step, not the evaluation.
      investigate: true,
    });
    expect(run).toMatchObject({ storiesPassed: 1, consecutiveFailures: 0, iterationsCompleted: 1 });
    expect(tasks.find((task) => task.taskId === 'US-001')?.status).toBe('complete');
  });

  it('completes the run once its last error is investigated', async () => {
    // Prepare / Act
    const runId = nextRunId('investigate-last');
    const { output, run } = await recorded(investigated(runId, 2, 'US-002'), {
      investigation,
      tasks: withFirstComplete(runId),
    });

    // Assess
    expect(output.action).toBe('complete');
    expect(output.reason).toBe(
      'all 2 errors investigated (the report says which have a pull request)',
    );
    expect(run.storiesPassed).toBe(2);
  });
});
