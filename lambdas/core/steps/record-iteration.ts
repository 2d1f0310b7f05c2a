import { artefactKeys } from '../shared/artefact-keys.js';
import { InvalidTransitionError, NotFoundError } from '../errors.js';
import { parseJsonText, parseOrThrow } from '../shared/validation.js';
import { type LoopState } from '../schemas/loop-state.js';
import { IterationResultSchema, type IterationResult } from '../schemas/iteration-result.js';
import type { Failure, RunRecord } from '../schemas/run.js';
import type { IterationOutcome } from '../schemas/outcome.js';
import type { IterationRecord } from '../schemas/iteration.js';
import type { TaskRecord } from '../schemas/task.js';
import type { LoopDeps } from './deps.js';
import { recordControl } from '../control/record-control.js';
import { RunControlStateSchema } from '../schemas/control.js';
import { describeStepError } from './step-error.js';
import { nextTaskState } from '../loop/task-progress.js';
import { decideNext } from '../loop/decide-next.js';
import { loadIteration, loadRun } from './load.js';
import {
  planFollowingIteration,
  writeFollowingIteration,
  type FollowingIteration,
} from './prepare-iteration.js';

/** How much of a failure's detail is kept on the run record (the rest is in S3). */
const FAILURE_DETAIL_LIMIT = 8_000;

export interface RecordOptions {
  /** What an iteration without result.json is recorded as. @default 'runner_error' */
  missingResultOutcome?: IterationOutcome;
  /**
   * When the run goes on (and does not evaluate), plan the next iteration too, so that
   * the state machine goes straight to RunAgent (`planned`). @default true
   */
  planFollowing?: boolean;
}

/**
 * Records what the runner reported (`result.json`) — or, when the run-agent step failed
 * before reporting, the step's error — on the iteration, its task and the run. Safe to
 * retry: each record remembers the last iteration it counted.
 *
 * A run that does not evaluate is decided here; when it goes on, the next iteration is
 * planned here as well (prepare-iteration's `planFollowingIteration`): its number goes out
 * with this step's write of the run, and its record and plan.json are written after it.
 * The state then names the new iteration, `planned`, and the state machine skips
 * PrepareIteration. What needs prepare-iteration's own work (a reset, a blocked task, a
 * retried step that counted nothing) leaves `planned` out, and PrepareIteration runs.
 */
export async function recordIteration(
  deps: LoopDeps,
  input: LoopState,
  { missingResultOutcome = 'runner_error', planFollowing = true }: RecordOptions = {},
): Promise<LoopState> {
  const iteration = requireIteration(input);
  const resultKey = artefactKeys.iteration(input.runId, iteration, 'result.json');
  // The report and the records it updates are read at once: one round trip, not two.
  const [resultText, stored] = await Promise.all([
    readIfPresent(deps, resultKey),
    loadStored(deps, input.runId, iteration),
  ]);
  const result =
    resultText === undefined
      ? resultWithoutReport(deps, stored.record, {
          outcome: missingResultOutcome,
          cause: input.error
            ? `the run-agent step failed: ${describeStepError(input.error)}`
            : 'the runner finished without writing result.json',
        })
      : withResultKey(
          parseOrThrow(IterationResultSchema, parseJsonText(resultText, resultKey), resultKey),
          resultKey,
        );
  const evaluates = stored.run.config.evaluation.enabled;
  const saved = await applyResult(deps, result, stored, planFollowing && !evaluates);
  if (evaluates) return { runId: input.runId, segment: input.segment, iteration, evaluate: true };
  // Without evaluation nothing changes the records before AssessProgress would read them
  // back: the decision is made here, from what was just written, and the state machine
  // routes on it (a Lambda invocation and two state transitions fewer per iteration).
  const next = decideNext(saved.run, saved.tasks);
  const following = next.action === 'continue' ? saved.following : undefined;
  return {
    runId: input.runId,
    segment: input.segment,
    iteration: following?.record.iteration ?? iteration,
    action: next.action,
    reason: next.reason,
    ...(following ? { planned: true } : {}),
  };
}

interface StoredState {
  record: IterationRecord;
  tasks: TaskRecord[];
  run: RunRecord;
}

async function loadStored(deps: LoopDeps, runId: string, iteration: number): Promise<StoredState> {
  const [record, tasks, run] = await Promise.all([
    loadIteration(deps.runs, runId, iteration),
    deps.runs.listTasks(runId),
    loadRun(deps.runs, runId),
  ]);
  return { record, tasks, run };
}

function withResultKey(result: IterationResult, resultKey: string): IterationResult {
  return { ...result, artefacts: { ...result.artefacts, result: resultKey } };
}

/** The result of an iteration that has no result.json (the runner died, or its segment did). */
function resultWithoutReport(
  deps: LoopDeps,
  record: IterationRecord,
  failure: { outcome: IterationOutcome; cause: string },
): IterationResult {
  return {
    runId: record.runId,
    iteration: record.iteration,
    taskId: record.taskId,
    outcome: failure.outcome,
    cause: failure.cause,
    failureDetail: failure.cause,
    gates: [],
    agentClaimedComplete: false,
    filesChanged: [],
    documents: [],
    durations: { agentMs: 0, gatesMs: 0, runnerMs: 0 },
    startedAt: record.startedAt ?? record.plannedAt,
    endedAt: deps.clock.now().toISOString(),
    artefacts: {},
  };
}

/**
 * Updates iteration, task and run; returns the run and tasks as they are now stored, and
 * with `planFollowing`, the next iteration when the run goes on and it could be planned
 * here (already written).
 */
async function applyResult(
  deps: LoopDeps,
  result: IterationResult,
  { record, tasks, run }: StoredState,
  planFollowing: boolean,
): Promise<Omit<StoredState, 'record'> & { following?: FollowingIteration }> {
  const { iteration } = result;
  const passed = result.outcome === 'passed';
  const now = deps.clock.now().toISOString();
  // Task, run and iteration each remember whether they counted this iteration (the task's
  // lastIteration, the run's lastRecordedIteration, the iteration's status), so the three
  // writes go out at once and a retried step completes only the ones that failed.
  const task = tasks.find((candidate) => candidate.taskId === record.taskId);
  const updated =
    task && task.lastIteration !== iteration
      ? nextTaskState(task, result, now, {
          maxTaskAttempts: run.config.control.loop.maxTaskAttempts,
          maxReviewIterations: run.config.control.quality.maxReviewIterations,
          previousErrors: (run.control?.history ?? [])
            .filter((entry) => entry.taskId === task.taskId && entry.errorSignature)
            .map((entry) => entry.errorSignature ?? ''),
        })
      : undefined;
  const taskSaved = task && updated ? deps.runs.saveTask(updated, task.version) : undefined;
  // A story counts once its task is complete: a pass with review findings leaves it in
  // review, and a retried step reads the task it saved the first time.
  const complete = tasks.filter(
    (candidate) =>
      (candidate.taskId === record.taskId && updated ? updated : candidate).status === 'complete',
  );
  const storiesPassed = complete.length;
  const counting = run.lastRecordedIteration < iteration;
  // Loop control learns from the iteration once, with the run's counters.
  const controlled = counting
    ? recordControl(
        RunControlStateSchema.parse(run.control ?? {}),
        {
          runId: run.runId,
          result,
          tasksComplete: complete.map((candidate) => candidate.taskId),
          mode: record.mode,
          startedAt: record.startedAt ?? result.startedAt,
          endedAt: result.endedAt,
        },
        run.config.control,
      )
    : undefined;
  const recordedRun: RunRecord | undefined =
    counting && controlled
      ? {
          ...run,
          control: controlled.state,
          lastRecordedIteration: iteration,
          iterationsCompleted: run.iterationsCompleted + 1,
          storiesPassed,
          consecutiveFailures: passed ? 0 : run.consecutiveFailures + 1,
          lastFailure: passed ? undefined : toFailure(record, result),
          updatedAt: now,
        }
      : undefined;
  const recordedIteration: IterationRecord =
    record.status === 'recorded'
      ? record
      : {
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
          ...(controlled ? { control: controlled.control } : {}),
          durations: result.durations,
          artefacts: { ...record.artefacts, ...result.artefacts },
        };
  const tasksAfter = updated
    ? tasks.map((candidate) => (candidate.taskId === updated.taskId ? updated : candidate))
    : tasks;
  // Planned only when this step counts the iteration: the new number rides on its write of
  // the run. A retried step that counted nothing leaves the planning to prepare-iteration.
  const following =
    planFollowing && recordedRun && decideNext(recordedRun, tasksAfter).action === 'continue'
      ? planFollowingIteration(
          deps,
          recordedRun,
          tasksAfter,
          passed ? undefined : recordedIteration,
        )
      : undefined;
  const runSaved = recordedRun
    ? deps.runs.saveRun(following?.run ?? recordedRun, run.version)
    : undefined;
  const iterationSaved =
    record.status === 'recorded'
      ? undefined
      : deps.runs.saveIteration(recordedIteration, record.version);
  // All three settle before anything is thrown: a retry then starts from records that are
  // no longer being written.
  const [savedTask, savedRun] = await allOrFirstFailure([taskSaved, runSaved, iterationSaved]);
  if (following) await writeFollowingIteration(deps, following);
  return {
    run: savedRun ?? run,
    tasks: savedTask
      ? tasks.map((candidate) => (candidate.taskId === savedTask.taskId ? savedTask : candidate))
      : tasks,
    ...(following ? { following } : {}),
  };
}

function toFailure(record: IterationRecord, result: IterationResult): Failure {
  return {
    iteration: record.iteration,
    taskId: record.taskId,
    outcome: result.outcome,
    summary: result.cause ?? result.outcome,
    detail: result.failureDetail.slice(-FAILURE_DETAIL_LIMIT),
  };
}

async function readIfPresent(deps: LoopDeps, key: string): Promise<string | undefined> {
  try {
    return await deps.artefacts.getText(key);
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

function requireIteration(input: LoopState): number {
  if (input.iteration === undefined)
    throw new InvalidTransitionError(`record-iteration for run ${input.runId} needs an iteration`);
  return input.iteration;
}

/**
 * An iteration handed out by a segment that died (the CLI was killed, an execution was
 * stopped) is recorded as interrupted, so the counts stay true and its number is not reused.
 */
export async function closeInterruptedIteration(deps: LoopDeps, run: RunRecord): Promise<void> {
  if (run.iterationsStarted === 0 || run.lastRecordedIteration >= run.iterationsStarted) return;
  // A number handed out whose record was never written: prepare-iteration reuses it.
  if (!(await deps.runs.getIteration(run.runId, run.iterationsStarted))) return;
  await recordIteration(
    deps,
    {
      runId: run.runId,
      segment: run.segment,
      iteration: run.iterationsStarted,
      error: {
        Error: 'SegmentEnded',
        Cause: `segment ${run.segment} ended before iteration ${run.iterationsStarted} was recorded`,
      },
    },
    // The segment starting now plans its first iteration itself (prepare-iteration).
    { missingResultOutcome: 'interrupted', planFollowing: false },
  );
}

/** Promise.all, except that every promise settles before the first failure is thrown. */
async function allOrFirstFailure<T extends readonly unknown[]>(
  promises: T,
): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const settled = await Promise.allSettled(promises);
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((result) => (result.status === 'fulfilled' ? result.value : undefined)) as {
    -readonly [K in keyof T]: Awaited<T[K]>;
  };
}
