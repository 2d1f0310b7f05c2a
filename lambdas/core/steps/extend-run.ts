/**
 * Continuing a run that ended without finishing its stories: one that stopped at its
 * iteration limit, or that a person cancelled. It is reopened (stored as paused, with a
 * raised limit) so that its next segment goes on from where it stopped.
 */
import { InvalidInputError, InvalidTransitionError, VersionConflictError } from '../errors.js';
import type { RunRecord, RunStatus } from '../schemas/run.js';
import type { SubmitDeps } from './deps.js';

/** Ended runs whose stories are not all done and that nothing went wrong in. */
export const CONTINUABLE_STATUSES: ReadonlySet<RunStatus> = new Set([
  'max_iterations',
  'cancelled',
]);

/**
 * Stores `run` paused with its iteration limit at `maxIterations` (default: the current
 * limit), ready for its next segment. The write is conditional on the version read, so of
 * two resumes racing, one reopens the run and the other is refused.
 *
 * @example
 * const reopened = await reopenRun(deps, run, 20); // status 'paused', limit 20
 */
export async function reopenRun(
  deps: SubmitDeps,
  run: RunRecord,
  maxIterations: number | undefined,
): Promise<RunRecord> {
  if (!CONTINUABLE_STATUSES.has(run.status)) throw notContinuable(run);
  const limit = checkedLimit(run, maxIterations);
  if (limit === undefined)
    throw new InvalidTransitionError(
      `run ${run.runId} stopped at its limit of ${run.config.limits.maxIterations} iterations and has used ${run.iterationsStarted}: resume it with a higher limit (maxIterations above ${run.iterationsStarted}; ralph resume ${run.runId} --max-iterations N)`,
    );
  return saveOrRefuse(deps, run, {
    ...run,
    status: 'paused',
    config: withLimit(run, limit),
    stopReason: `${run.status === 'cancelled' ? 'cancelled' : 'stopped at its iteration limit'}; continued with a limit of ${limit} iterations`,
    endedAt: undefined,
    cancelRequested: false,
    updatedAt: deps.clock.now().toISOString(),
  });
}

/** A paused (or taken-over) run given a new limit before its next segment. */
export async function raiseLimit(
  deps: SubmitDeps,
  run: RunRecord,
  maxIterations: number,
): Promise<RunRecord> {
  const limit = checkedLimit(run, maxIterations)!;
  return saveOrRefuse(deps, run, {
    ...run,
    config: withLimit(run, limit),
    updatedAt: deps.clock.now().toISOString(),
  });
}

/**
 * The limit the run continues with, or undefined when the current one is used up and no
 * new one was given. A given limit must leave iterations to run: numbers already handed
 * out (interrupted ones included) are never reused.
 */
function checkedLimit(run: RunRecord, maxIterations: number | undefined): number | undefined {
  const used = run.iterationsStarted;
  if (maxIterations === undefined) {
    const current = run.config.limits.maxIterations;
    return current > used ? current : undefined;
  }
  if (!Number.isInteger(maxIterations) || maxIterations <= used)
    throw new InvalidInputError('maxIterations', [
      `${maxIterations} is not above the ${used} iterations run ${run.runId} has already used: pass a number greater than ${used}`,
    ]);
  return maxIterations;
}

function withLimit(run: RunRecord, maxIterations: number): RunRecord['config'] {
  return { ...run.config, limits: { ...run.config.limits, maxIterations } };
}

async function saveOrRefuse(deps: SubmitDeps, run: RunRecord, next: RunRecord): Promise<RunRecord> {
  try {
    return await deps.runs.saveRun(next, run.version);
  } catch (error) {
    if (!(error instanceof VersionConflictError)) throw error;
    throw new InvalidTransitionError(
      `run ${run.runId} changed while it was being resumed (another resume or cancel got there first): see its status and try again`,
      { cause: error },
    );
  }
}

function notContinuable(run: RunRecord): InvalidTransitionError {
  if (run.status === 'completed')
    return new InvalidTransitionError(
      `run ${run.runId} has ended (completed): every story passes, so there is nothing to continue`,
    );
  return new InvalidTransitionError(
    `run ${run.runId} has ended (${run.status}${run.stopReason ? `: ${run.stopReason}` : ''}) and cannot be continued: only a run that stopped at its iteration limit or was cancelled can; start a new run`,
  );
}
