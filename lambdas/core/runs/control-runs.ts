import type { CancelResult, RunStarted } from '../schemas/run-views.js';
import type { RunRecord } from '../schemas/run.js';
import type { SubmitDeps } from '../steps/deps.js';
import { loadRun } from '../steps/load.js';
import { requestCancel, resumeRun } from '../steps/lifecycle.js';
import { runLinks } from './links.js';
import { parseRunId } from './read-runs.js';

/**
 * Whether anything still executes the run: its segment's execution, or the next one's
 * (a segment starts the next before that one's InitRun moves the run to it).
 */
async function executing(deps: SubmitDeps, run: RunRecord): Promise<boolean> {
  if (run.status !== 'running') return false;
  const { runId, segment } = run;
  return (
    (await deps.executions.isRunning({ runId, segment })) ||
    (await deps.executions.isRunning({ runId, segment: segment + 1 }))
  );
}

/**
 * Cancels a run (`409` through InvalidTransitionError when it has already ended): a paused
 * one at once, a running one at its next step — or at once when its execution is gone
 * (failed, timed out, stopped), since no step would ever come.
 */
export async function cancelRun(deps: SubmitDeps, runId: string): Promise<CancelResult> {
  const run = await loadRun(deps.runs, parseRunId(runId));
  const noLiveExecution = run.status === 'running' && !(await executing(deps, run));
  const cancelled = await requestCancel(deps, run.runId, { noLiveExecution });
  return { run: cancelled, links: runLinks(run.runId) };
}

/**
 * Starts the next segment of a paused run, or continues one that stopped at its iteration
 * limit or was cancelled, with `maxIterations` as its new limit (`400` when that is not
 * above the iterations used; `409` when the run completed, aborted or failed, or is running
 * with an execution that still goes). A run stored as running whose execution is gone is
 * resumed: that is how a run recovers from an execution that failed outside the loop's own
 * catches. `ralph resume` and `POST /runs/{id}/resume` both come here.
 */
export async function resumeStoredRun(
  deps: SubmitDeps,
  runId: string,
  options: { maxIterations?: number } = {},
): Promise<RunStarted> {
  const run = await loadRun(deps.runs, parseRunId(runId));
  const allowRunning = run.status === 'running' && !(await executing(deps, run));
  const { segment, executionId } = await resumeRun(deps, run.runId, { ...options, allowRunning });
  return { runId: run.runId, segment, executionId, links: runLinks(run.runId) };
}
