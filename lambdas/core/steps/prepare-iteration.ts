import { artefactKeys } from '../shared/artefact-keys.js';
import { InvalidTransitionError, NotFoundError } from '../errors.js';
import type { LoopState } from '../schemas/loop-state.js';
import type { IterationPlan } from '../schemas/plan.js';
import type { RunRecord } from '../schemas/run.js';
import type { IterationRecord } from '../schemas/iteration.js';
import type { TaskRecord } from '../schemas/task.js';
import { planControl } from '../control/plan-control.js';
import { type PlanControl } from '../schemas/plan.js';
import { reviewWork, type ReviewWork } from '../control/quality/review-section.js';
import type { RoleTaskState } from '../control/roles/select-role.js';
import { nextTask } from '../loop/decide-next.js';
import { fieldsOf } from '../loop/task-progress.js';
import type { LoopDeps } from './deps.js';
import { loadRun } from './load.js';

/**
 * Hands out the next iteration number, picks its task and writes `plan.json`. Safe to
 * retry: a planned iteration that was never run is reused rather than numbered again.
 */
export async function prepareIteration(deps: LoopDeps, input: LoopState): Promise<LoopState> {
  const [loaded, tasks] = await Promise.all([
    loadRun(deps.runs, input.runId),
    deps.runs.listTasks(input.runId),
  ]);
  let run = loaded;
  if (run.status !== 'running')
    throw new InvalidTransitionError(`run ${run.runId} is ${run.status}, not running`);
  // A reset goes back to a checkpoint: the stories completed after it are open again.
  const reset = pendingReset(run);
  if (reset) {
    const reopened = await reopenTasks(deps, tasks, reset.checkpoint.iteration);
    tasks.splice(0, tasks.length, ...reopened);
    run = {
      ...run,
      storiesPassed: reopened.filter((task) => task.status === 'complete').length,
    };
  }
  // The failed iteration's gates steer the next prompt (recovery, remediation).
  const failed = run.lastFailure
    ? await deps.runs.getIteration(run.runId, run.lastFailure.iteration)
    : undefined;
  const controlOf = controlFor(deps, run, failed);

  let record = await reusablePlannedIteration(deps, run, tasks, controlOf);
  if (!record) {
    const next = nextTask(tasks, run.config.control.loop);
    if (!next) throw new InvalidTransitionError(`run ${run.runId} has no open task to work on`);
    const task = await unblockIfBlocked(deps, next);
    const iteration = run.iterationsStarted + 1;
    run = await deps.runs.saveRun(
      { ...run, iterationsStarted: iteration, updatedAt: deps.clock.now().toISOString() },
      run.version,
    );
    record = planIteration(deps, run, task, iteration, controlOf);
    // The number is this step's alone once the run is saved, so the record and the plan
    // are written at once; a retry finds one or both and writes the same bytes again.
    await Promise.all([
      deps.runs.createIteration(record),
      putPlan(deps, run, record, tasks, controlOf),
    ]);
  } else await putPlan(deps, run, record, tasks, controlOf);
  return {
    runId: run.runId,
    segment: input.segment,
    iteration: record.iteration,
  };
}

type ControlOf = (task: TaskRecord, plannedAt: string, iteration: number) => PlanControl;

/** Loop control's part of a plan, for any task of `run`; `failed` is the run's last failure's record. */
function controlFor(
  deps: LoopDeps,
  run: RunRecord,
  failed: IterationRecord | undefined,
): ControlOf {
  return (task, plannedAt, iteration) =>
    planControl(
      {
        state: run.control,
        story: task.story,
        ...(task.subtasks ? { subtasks: task.subtasks } : {}),
        ...(failed && run.lastFailure?.taskId === task.taskId && failed.outcome
          ? {
              lastFailure: {
                outcome: failed.outcome,
                gates: failed.gates,
                detail: run.lastFailure.detail,
              },
            }
          : {}),
        ...reviewOf(run, task),
        task: roleStateOf(task),
        iteration,
        now: plannedAt,
        templates: deps.templates,
      },
      run.config.control,
    );
}

/** The iteration after the one just recorded, planned but not yet written. */
export interface FollowingIteration {
  /** The run as recorded, with the new number handed out (`iterationsStarted`). */
  run: RunRecord;
  record: IterationRecord;
  plan: IterationPlan;
}

/**
 * Plans the iteration after the one record-iteration is recording, from the run and tasks
 * as it is about to write them: a run that goes on then needs no prepare-iteration step
 * of its own (a Lambda invocation, two state transitions and a round trip of reads fewer
 * per iteration), and the new number goes out with record-iteration's own write of the
 * run. Undefined when the plan needs prepare-iteration's own work first: a reset to a
 * checkpoint to apply, no open task, only blocked tasks to pick again, or a number handed
 * out that was never recorded. `failed` is the iteration's record as written, when it
 * failed (the next prompt's recovery section reads its gates).
 *
 * Once the run is written, {@link writeFollowingIteration} writes the record and the
 * plan, as prepare-iteration does after its own write of the run; a failure in between is
 * what prepare-iteration's retry already finds (a number without a record, or a planned
 * record whose plan is written again with the same bytes).
 */
export function planFollowingIteration(
  deps: LoopDeps,
  run: RunRecord,
  tasks: readonly TaskRecord[],
  failed: IterationRecord | undefined,
): FollowingIteration | undefined {
  if (pendingReset(run) || run.iterationsStarted !== run.lastRecordedIteration) return undefined;
  const task = nextTask(tasks, run.config.control.loop);
  if (!task || task.status === 'blocked') return undefined;
  const iteration = run.iterationsStarted + 1;
  const numbered = { ...run, iterationsStarted: iteration };
  const controlOf = controlFor(deps, numbered, failed);
  const record = planIteration(deps, numbered, task, iteration, controlOf);
  return { run: numbered, record, plan: buildPlan(numbered, record, tasks, controlOf) };
}

/** Writes the record and the plan of a {@link planFollowingIteration}, once its run is written. */
export async function writeFollowingIteration(
  deps: LoopDeps,
  { record, plan }: Pick<FollowingIteration, 'record' | 'plan'>,
): Promise<void> {
  await Promise.all([deps.runs.createIteration(record), writePlan(deps, record, plan)]);
}

async function reusablePlannedIteration(
  deps: LoopDeps,
  run: RunRecord,
  tasks: readonly TaskRecord[],
  controlOf: ControlOf,
): Promise<IterationRecord | undefined> {
  if (run.iterationsStarted === 0 || run.lastRecordedIteration >= run.iterationsStarted)
    return undefined;
  const existing = await deps.runs.getIteration(run.runId, run.iterationsStarted);
  if (existing?.status === 'planned') return existing;
  if (existing) return undefined;
  // The number was claimed but the record never written: write it now under that number.
  const task = nextTask(tasks, run.config.control.loop);
  if (!task) return undefined;
  const record = planIteration(deps, run, task, run.iterationsStarted, controlOf);
  await deps.runs.createIteration(record);
  return record;
}

/**
 * Writes `plan.json`. A retried step writes the same plan again (same state, same bytes),
 * which the write-once store accepts; a different plan for the same iteration is refused.
 */
async function putPlan(
  deps: LoopDeps,
  run: RunRecord,
  record: IterationRecord,
  tasks: readonly TaskRecord[],
  controlOf: ControlOf,
): Promise<void> {
  await writePlan(deps, record, buildPlan(run, record, tasks, controlOf));
}

async function writePlan(deps: LoopDeps, record: IterationRecord, plan: IterationPlan) {
  await deps.artefacts.put(
    artefactKeys.iteration(record.runId, record.iteration, 'plan.json'),
    JSON.stringify(plan, null, 2),
    'application/json',
  );
}

function planIteration(
  deps: LoopDeps,
  run: RunRecord,
  task: TaskRecord,
  iteration: number,
  controlOf: ControlOf,
): IterationRecord {
  const plannedAt = deps.clock.now().toISOString();
  return {
    mode: controlOf(task, plannedAt, iteration).mode,
    runId: run.runId,
    iteration,
    segment: run.segment,
    status: 'planned',
    version: 1,
    taskId: task.taskId,
    taskTitle: task.title,
    attempt: task.attempts + 1,
    plannedAt,
    gates: [],
    agentClaimedComplete: false,
    filesChanged: [],
    documents: [],
    artefacts: {
      plan: artefactKeys.iteration(run.runId, iteration, 'plan.json'),
    },
  };
}

function buildPlan(
  run: RunRecord,
  record: IterationRecord,
  tasks: readonly TaskRecord[],
  controlOf: ControlOf,
): IterationPlan {
  const task = tasks.find((candidate) => candidate.taskId === record.taskId);
  if (!task) throw new NotFoundError(`run ${run.runId} has no task ${record.taskId}`);
  return {
    runId: run.runId,
    iteration: record.iteration,
    attempt: record.attempt,
    story: task.story,
    lastFailure: run.lastFailure,
    iterationsLeft: Math.max(0, run.config.limits.maxIterations - record.iteration),
    storiesRemaining: tasks.filter((candidate) => candidate.status !== 'complete').length,
    control: controlOf(task, record.plannedAt, record.iteration),
    ...checkpointWork(run),
    ...subtaskOf(task),
  };
}

/** The reset record-iteration asked for after the last recorded iteration, if any. */
function pendingReset(run: RunRecord) {
  const reset = run.control?.reset;
  return reset && reset.after === run.lastRecordedIteration ? reset : undefined;
}

/**
 * The tasks as they are after a reset to the checkpoint taken at `checkpointIteration`: a
 * story that passed after it is open again (complete, or in review), and findings of an
 * iteration after it are dropped (the code they were about is gone). A story complete in
 * prd.json from the start has no iteration, and stays complete.
 */
function afterReset(task: TaskRecord, checkpointIteration: number): TaskRecord {
  const after = (iteration: number | undefined) => (iteration ?? 0) > checkpointIteration;
  const reopened = (): TaskRecord => {
    const { review: _review, ...fields } = fieldsOf(task);
    return { ...fields, status: 'in_progress' };
  };
  if (task.status === 'complete') return after(task.lastIteration) ? reopened() : task;
  // In review since the iteration that passed with the findings, not since its last one
  // (a cancelled review iteration leaves it in review).
  if (task.status === 'in_review') return after(task.review.iteration) ? reopened() : task;
  const { review, ...unreviewed } = task;
  return review && after(review.iteration) ? unreviewed : task;
}

async function reopenTasks(
  deps: LoopDeps,
  tasks: readonly TaskRecord[],
  checkpointIteration: number,
): Promise<TaskRecord[]> {
  return Promise.all(
    tasks.map((task) => {
      const reopened = afterReset(task, checkpointIteration);
      return reopened === task ? task : deps.runs.saveTask(reopened, task.version);
    }),
  );
}

/** What the runner does to the checkpoint tags, and the branch, before the agent starts. */
function checkpointWork(run: RunRecord): Pick<IterationPlan, 'checkpoints'> {
  const changes =
    run.control?.checkpointChanges?.after === run.lastRecordedIteration
      ? run.control.checkpointChanges
      : undefined;
  const reset = pendingReset(run);
  if (!changes && !reset) return {};
  return {
    checkpoints: {
      create: changes?.create ?? [],
      drop: changes?.drop ?? [],
      ...(reset
        ? {
            resetTo: {
              tag: reset.checkpoint.tag,
              commit: reset.checkpoint.commit,
              reason: reset.reason,
            },
          }
        : {}),
    },
  };
}

/** A blocked task picked again (every open one is blocked) starts a new stint. */
async function unblockIfBlocked(deps: LoopDeps, task: TaskRecord): Promise<TaskRecord> {
  if (task.status !== 'blocked') return task;
  return deps.runs.saveTask(
    { ...task, status: 'in_progress', stintStartAttempts: task.attempts },
    task.version,
  );
}

/** The next open subtask of a decomposed story, and whether it is the last one. */
function subtaskOf(task: TaskRecord): Pick<IterationPlan, 'subtask'> {
  const subtasks = task.subtasks ?? [];
  const index = subtasks.findIndex((subtask) => subtask.status === 'open');
  const subtask = subtasks[index];
  if (!subtask) return {};
  return {
    subtask: {
      id: subtask.id,
      title: subtask.title,
      acceptanceCriteria: subtask.acceptanceCriteria,
      position: index + 1,
      total: subtasks.length,
      last: subtasks.filter((candidate) => candidate.status === 'open').length === 1,
    },
  };
}

/** A task in review hands its review iteration the findings (plan-control's review section). */
function reviewOf(run: RunRecord, task: TaskRecord): { review?: ReviewWork } {
  const review = reviewWork(task, {
    maxReviewIterations: run.config.control.quality.maxReviewIterations,
  });
  return review ? { review } : {};
}

/**
 * The task's state as the role depends on it: in review with or without passing tests (a
 * test finding calls the tester), and a task picked again after a block (the planner).
 */
function roleStateOf(task: TaskRecord): RoleTaskState {
  if (task.status === 'in_review')
    return {
      status: 'in_review',
      testsPassing: !task.review.findings.some(
        (finding) => finding.kind === 'missing_tests' || finding.kind === 'test_failures',
      ),
    };
  // Unblocked for this iteration (prepare saves it in progress, a new stint).
  if (task.timesBlocked > 0 && task.attempts === task.stintStartAttempts)
    return { status: 'blocked', reason: task.block?.reason ?? 'blocked before' };
  return { status: task.status };
}
