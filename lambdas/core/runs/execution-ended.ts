/**
 * An execution of the run loop that ended outside the loop's own paths — failed on an error
 * no Catch took, timed out, or was stopped from outside (StopExecution, a console click) —
 * leaves its run stored as running, with nothing left to end it. Step Functions reports every
 * such end (EventBridge in AWS; the local executions here): this records it, so the run ends
 * `failed` with the cause, and the iteration it left open is recorded as interrupted.
 */
import { z } from 'zod';
import type { LoopDeps } from '../steps/deps.js';
import { closeRun } from '../steps/end-segment.js';
import { closeInterruptedIteration } from '../steps/interrupted.js';

/** What Step Functions says of an execution that ended (the EventBridge event's `detail`). */
export const ExecutionEndedSchema = z.object({
  /** `<runId>-s<segment>`, as the run loop names its executions. */
  name: z.string().regex(/^.+-s\d+$/, 'expected a run-loop execution name <runId>-s<segment>'),
  status: z.enum(['FAILED', 'TIMED_OUT', 'ABORTED']),
  error: z.string().nullish(),
  cause: z.string().nullish(),
});
export type ExecutionEnded = z.infer<typeof ExecutionEndedSchema>;

/** A cause is a whole error document at times: a stop reason keeps its start. */
const CAUSE_CHARS = 300;

const WHAT_HAPPENED: Record<ExecutionEnded['status'], string> = {
  FAILED: 'failed',
  TIMED_OUT: 'timed out',
  ABORTED: 'was stopped',
};

export type ExecutionEndedOutcome =
  | { recorded: true; runId: string; reason: string }
  | { recorded: false; runId: string; why: string };

export async function recordExecutionEnded(
  deps: LoopDeps,
  ended: ExecutionEnded,
): Promise<ExecutionEndedOutcome> {
  const [, runId, segmentText] = /^(.+)-s(\d+)$/.exec(ended.name)!;
  const segment = Number(segmentText);
  const run = await deps.runs.getRun(runId!);
  if (!run) return { recorded: false, runId: runId!, why: 'no such run (its InitRun never ran)' };
  if (run.status !== 'running')
    return { recorded: false, runId: run.runId, why: `the run is ${run.status} already` };
  if (run.segment > segment)
    return { recorded: false, runId: run.runId, why: `segment ${run.segment} runs it now` };
  const detail = [ended.error, ended.cause]
    .filter((part): part is string => typeof part === 'string' && part !== '')
    .join(': ');
  const short = detail.length > CAUSE_CHARS ? `${detail.slice(0, CAUSE_CHARS - 1)}…` : detail;
  const reason = `execution ${ended.name} ${WHAT_HAPPENED[ended.status]}${short ? `: ${short}` : ''}`;
  await closeInterruptedIteration(deps, run);
  await closeRun(deps, { runId: run.runId, segment: run.segment, action: 'fail', reason });
  return { recorded: true, runId: run.runId, reason };
}
