import type { LoopState } from '../schemas/loop-state.js';
import { decideNext } from '../loop/decide-next.js';
import type { LoopDeps } from './deps.js';
import { loadRun } from './load.js';

/** Decides the next action from the stored run; the state machine's Choice acts on it. */
export async function assessProgress(deps: LoopDeps, input: LoopState): Promise<LoopState> {
  const [run, tasks] = await Promise.all([
    loadRun(deps.runs, input.runId),
    deps.runs.listTasks(input.runId),
  ]);
  const next = decideNext(run, tasks);
  return { runId: input.runId, segment: input.segment, action: next.action, reason: next.reason };
}
