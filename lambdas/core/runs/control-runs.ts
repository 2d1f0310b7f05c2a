import type { CancelResult, RunStarted } from '../schemas/run-views.js';
import type { LoopDeps, SubmitDeps } from '../steps/deps.js';
import { requestCancel, resumeRun } from '../steps/lifecycle.js';
import { runLinks } from './links.js';
import { parseRunId } from './read-runs.js';

/**
 * Cancels a run (`409` through InvalidTransitionError when it has already ended): a paused
 * one at once, a running one at its next step.
 */
export async function cancelRun(deps: LoopDeps, runId: string): Promise<CancelResult> {
  const run = await requestCancel(deps, parseRunId(runId));
  return { run, links: runLinks(run.runId) };
}

/** Starts the next segment of a paused run (`409` when it is running or has ended). */
export async function resumePausedRun(deps: SubmitDeps, runId: string): Promise<RunStarted> {
  const id = parseRunId(runId);
  const { segment, executionId } = await resumeRun(deps, id);
  return { runId: id, segment, executionId, links: runLinks(id) };
}
