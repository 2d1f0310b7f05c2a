/**
 * Recording what the runner reported for an iteration, without I/O: the iteration record
 * in its final state, its task after it (task-progress.ts), and the run's counters and
 * loop control's state (control/record-control.ts).
 *
 * Each of the three records remembers whether it counted the iteration (the task's
 * `lastIteration`, the run's `lastRecordedIteration`, the iteration's `recorded` status),
 * so a retried step, which reads back whatever its first attempt wrote, changes only the
 * records that are still missing it.
 */
import type { IterationRecord } from '../schemas/iteration.js';
import type { IterationResult } from '../schemas/iteration-result.js';
import type { Failure, RunRecord } from '../schemas/run.js';
import type { TaskRecord } from '../schemas/task.js';
import { RunControlStateSchema } from '../schemas/control.js';
import { recordControl } from '../control/record-control.js';
import { recordedReceipt } from '../costs/receipt.js';
import { pricingFor } from '../judge/pricing.js';
import type { CostReceipt } from '../schemas/cost-receipt.js';
import { roundTo } from '../shared/stats.js';
import { nextTaskState } from './task-progress.js';

/** How much of a failure's detail is kept on the run record (the rest is in S3). */
const FAILURE_DETAIL_LIMIT = 8_000;

export interface Recorded {
  run: RunRecord;
  tasks: readonly TaskRecord[];
  /** The records this iteration changed: each is absent when it had counted it already. */
  changed: { run?: RunRecord; task?: TaskRecord; iteration?: IterationRecord };
  /** The iteration's record as it now stands. */
  iteration: IterationRecord;
}

/**
 * The records after `result`, for a run and tasks as stored and the iteration's record.
 *
 * @example
 * const { changed } = recordResult({ run, tasks, record, result, now });
 * changed.run?.lastRecordedIteration; // result.iteration
 */
export function recordResult(input: {
  run: RunRecord;
  tasks: readonly TaskRecord[];
  record: IterationRecord;
  result: IterationResult;
  now: string;
}): Recorded {
  const { run, tasks, record, result, now } = input;
  const task = tasks.find((candidate) => candidate.taskId === record.taskId);
  const updatedTask =
    task && task.lastIteration !== result.iteration
      ? nextTaskState(task, result, now, {
          maxTaskAttempts: run.config.control.loop.maxTaskAttempts,
          maxReviewIterations: run.config.control.quality.maxReviewIterations,
          previousErrors: (run.control?.history ?? [])
            .filter((entry) => entry.taskId === task.taskId && entry.errorSignature)
            .map((entry) => entry.errorSignature ?? ''),
        })
      : undefined;
  const tasksAfter = updatedTask
    ? tasks.map((candidate) => (candidate === task ? updatedTask : candidate))
    : tasks;
  // Built from the run before it counts this iteration (its last failure is the retry's reason).
  const receipt =
    record.status === 'recorded' && record.receipt
      ? record.receipt
      : recordedReceipt(run, record, result, pricingFor(run.config.pricing));
  const recordedRun =
    run.lastRecordedIteration < result.iteration
      ? countedRun(run, tasksAfter, record, result, now, receipt)
      : undefined;
  const iteration =
    record.status === 'recorded'
      ? undefined
      : { ...recordedIteration(record, result, recordedRun), receipt };
  return {
    run: recordedRun?.run ?? run,
    tasks: tasksAfter,
    changed: {
      ...(recordedRun ? { run: recordedRun.run } : {}),
      ...(updatedTask ? { task: updatedTask } : {}),
      ...(iteration ? { iteration } : {}),
    },
    iteration: iteration ?? record,
  };
}

/** The run with the iteration counted, and loop control's view of it for the record. */
function countedRun(
  run: RunRecord,
  tasks: readonly TaskRecord[],
  record: IterationRecord,
  result: IterationResult,
  now: string,
  receipt: CostReceipt,
): { run: RunRecord; control: IterationRecord['control'] } {
  const passed = result.outcome === 'passed';
  // A story counts once its task is complete: a pass with review findings leaves it in
  // review, and a retried step reads the task it saved the first time.
  const complete = tasks.filter((task) => task.status === 'complete');
  const controlled = recordControl(
    RunControlStateSchema.parse(run.control ?? {}),
    {
      runId: run.runId,
      result,
      tasksComplete: complete.map((task) => task.taskId),
      mode: record.mode,
      startedAt: record.startedAt ?? result.startedAt,
      endedAt: result.endedAt,
    },
    run.config.control,
  );
  return {
    run: {
      ...run,
      control: controlled.state,
      lastRecordedIteration: result.iteration,
      iterationsCompleted: run.iterationsCompleted + 1,
      storiesPassed: complete.length,
      consecutiveFailures: passed ? 0 : run.consecutiveFailures + 1,
      costUsd: roundTo(run.costUsd + receipt.totalUsd, 6),
      lastFailure: passed ? undefined : failureOf(record, result),
      updatedAt: now,
    },
    control: controlled.control,
  };
}

/**
 * The iteration's record once `result` is recorded on it (loop control's view too, when
 * the run counted it here).
 */
export function recordedIteration(
  record: IterationRecord,
  result: IterationResult,
  counted?: { control: IterationRecord['control'] },
): IterationRecord {
  return {
    ...record,
    status: 'recorded',
    startedAt: record.startedAt ?? result.startedAt,
    endedAt: result.endedAt,
    outcome: result.outcome,
    cause: result.cause,
    gates: result.gates,
    commit: result.commit,
    evidenceRef: result.evidenceRef,
    agentExitCode: result.agentExitCode,
    agentClaimedComplete: result.agentClaimedComplete,
    filesChanged: result.filesChanged,
    documents: result.documents,
    observation: result.observation,
    ...(result.agentReport ? { agentReport: result.agentReport } : {}),
    ...(result.learning ? { learning: result.learning } : {}),
    ...(counted?.control ? { control: counted.control } : {}),
    durations: result.durations,
    artefacts: { ...record.artefacts, ...result.artefacts },
  };
}

function failureOf(record: IterationRecord, result: IterationResult): Failure {
  return {
    iteration: record.iteration,
    taskId: record.taskId,
    outcome: result.outcome,
    summary: result.cause ?? result.outcome,
    detail: result.failureDetail.slice(-FAILURE_DETAIL_LIMIT),
    ...(result.evidenceRef === undefined ? {} : { evidenceRef: result.evidenceRef }),
  };
}
