/**
 * An iteration a dead segment left open (the CLI was killed, an execution was stopped):
 * it is recorded as interrupted, so the counts stay true and its number is not reused.
 */
import type { LoopState } from '../schemas/loop-state.js';
import type { RunRecord } from '../schemas/run.js';
import { advanceStep } from './advance.js';
import type { LoopDeps } from './deps.js';

/**
 * The iteration a segment before `segment` handed out and never recorded, as the state
 * that records it; undefined when there is none. A number handed out without a record is
 * not one (planning writes it under that number), nor is an iteration `segment` itself
 * planned (a retried first step reuses it).
 */
export async function danglingIteration(
  deps: LoopDeps,
  run: RunRecord,
  segment: number,
): Promise<Pick<LoopState, 'iteration' | 'error'> | undefined> {
  const iteration = run.iterationsStarted;
  if (iteration === 0 || run.lastRecordedIteration >= iteration) return undefined;
  const record = await deps.runs.getIteration(run.runId, iteration);
  if (!record || (record.status === 'planned' && record.segment >= segment)) return undefined;
  return {
    iteration,
    error: {
      Error: 'Interrupted',
      Cause: `the run stopped before iteration ${iteration} finished (its process, agent task or execution ended during segment ${record.segment})`,
    },
  };
}

/**
 * Records the iteration a dead segment left open, if any, without planning another (the
 * run is about to end: a cancel).
 */
export async function closeInterruptedIteration(deps: LoopDeps, run: RunRecord): Promise<void> {
  // Seen from a segment after this one: no segment of this run follows a cancel, so even
  // an iteration this segment planned and never ran is left open for good.
  const dangling = await danglingIteration(deps, run, run.segment + 1);
  if (!dangling) return;
  await advanceStep(
    deps,
    { runId: run.runId, segment: run.segment, ...dangling },
    { missingOutcome: 'interrupted', plan: false },
  );
}
