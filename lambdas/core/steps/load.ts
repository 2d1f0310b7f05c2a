import { NotFoundError } from '../errors.js';
import type { RunStore } from '../../ports.js';
import type { RunRecord } from '../schemas/run.js';
import type { IterationRecord } from '../schemas/iteration.js';

export async function loadRun(runs: RunStore, runId: string): Promise<RunRecord> {
  const run = await runs.getRun(runId);
  if (!run) throw new NotFoundError(`run ${runId} does not exist`);
  return run;
}

export async function loadIteration(
  runs: RunStore,
  runId: string,
  iteration: number,
): Promise<IterationRecord> {
  const record = await runs.getIteration(runId, iteration);
  if (!record) throw new NotFoundError(`iteration ${iteration} of run ${runId} does not exist`);
  return record;
}
