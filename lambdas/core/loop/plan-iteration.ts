/**
 * Planning the next iteration, without I/O: which task, under which number, with which
 * prompt sections (loop control's plan), and what changes first (a reset to a checkpoint
 * reopens the stories completed after it; a blocked task picked again starts a new stint).
 * `plan.json` is what the runner carries out; the iteration record is written beside it.
 */
import { InvalidTransitionError, NotFoundError } from '../errors.js';
import { artefactKeys } from '../shared/artefact-keys.js';
import type { PromptTemplates } from '../prompts/templates.js';
import type { IterationRecord } from '../schemas/iteration.js';
import type { PlanLearning } from '../schemas/learning.js';
import type { IterationPlan, PlanControl } from '../schemas/plan.js';
import type { RunRecord } from '../schemas/run.js';
import type { TaskRecord } from '../schemas/task.js';
import { planControl } from '../control/plan-control.js';
import { reviewWork } from '../control/quality/review-section.js';
import type { RoleTaskState } from '../control/roles/select-role.js';
import { nextTask } from './decide-next.js';
import { fieldsOf } from './task-progress.js';

export interface PlanningInput {
  /** The run as it will be stored once the iteration before is recorded. */
  run: RunRecord;
  tasks: readonly TaskRecord[];
  /** The record of the run's last failure, when it has one: its gates steer the next prompt. */
  failed: IterationRecord | undefined;
  /**
   * The record under `run.iterationsStarted` when that number was handed out but never
   * recorded (a retried step): `planned` is reused, `undefined` means it was never written.
   * Absent when no such number is open.
   */
  handedOut?: { record: IterationRecord | undefined };
  now: string;
  templates: PromptTemplates;
  /** What the plan carries of what was learned, for the task picked (absent: nothing). */
  learning?: LearningOf;
}

/** What was learned, for a task of `run` (the run as planning leaves it). */
export type LearningOf = (task: TaskRecord, run: RunRecord) => PlanLearning;

/** The next iteration, and every record that changes for it. */
export interface PlannedIteration {
  /** The run with the number handed out (`iterationsStarted`) and the stories after a reset. */
  run: RunRecord;
  /** Tasks that change before the iteration (reopened by a reset, picked again after a block). */
  changedTasks: TaskRecord[];
  /** The iteration's record: new (`create`), or the planned one handed out before. */
  record: IterationRecord;
  create: boolean;
  plan: IterationPlan;
}

/**
 * Plans the next iteration of a run that goes on.
 *
 * @throws InvalidTransitionError when no task is open (the decision said continue).
 * @example
 * const next = planIteration({ run, tasks, failed, now, templates });
 * next.record.iteration; // run.iterationsStarted + 1
 */
export function planIteration(input: PlanningInput): PlannedIteration {
  const reset = pendingReset(input.run);
  const reopened = tasksAfterPendingReset(input.run, input.tasks);
  const run: RunRecord = reset
    ? { ...input.run, storiesPassed: reopened.filter((task) => task.status === 'complete').length }
    : input.run;
  const controlOf = controlFor(run, input.failed, input.templates);
  const changedFrom = (tasks: readonly TaskRecord[]) =>
    tasks.filter((task, index) => task !== input.tasks[index]);
  const reused = input.handedOut?.record;
  if (reused?.status === 'planned')
    return {
      run,
      changedTasks: changedFrom(reopened),
      record: reused,
      create: false,
      plan: buildPlan(run, reused, reopened, controlOf, input.learning),
    };

  const picked = nextTask(reopened, run.config.control.loop);
  if (!picked) throw new InvalidTransitionError(`run ${run.runId} has no open task to work on`);
  // A blocked task picked again (every open one is blocked) starts a new stint.
  const task: TaskRecord =
    picked.status === 'blocked'
      ? { ...fieldsOf(picked), status: 'in_progress', stintStartAttempts: picked.attempts }
      : picked;
  const tasks = reopened.map((candidate) => (candidate === picked ? task : candidate));
  // A number handed out whose record was never written is written now under that number;
  // one whose record a runner claimed is not reused (init-run records it as interrupted).
  const iteration =
    input.handedOut && input.handedOut.record === undefined
      ? run.iterationsStarted
      : run.iterationsStarted + 1;
  const numbered: RunRecord = { ...run, iterationsStarted: iteration };
  const record = plannedRecord(numbered, task, iteration, input.now, controlOf);
  return {
    run: numbered,
    changedTasks: changedFrom(tasks),
    record,
    create: true,
    plan: buildPlan(numbered, record, tasks, controlOf, input.learning),
  };
}

type ControlOf = (task: TaskRecord, plannedAt: string, iteration: number) => PlanControl;

/** Loop control's part of a plan, for any task of `run`; `failed` is the run's last failure's record. */
function controlFor(
  run: RunRecord,
  failed: IterationRecord | undefined,
  templates: PromptTemplates,
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
        templates,
      },
      run.config.control,
    );
}

function plannedRecord(
  run: RunRecord,
  task: TaskRecord,
  iteration: number,
  plannedAt: string,
  controlOf: ControlOf,
): IterationRecord {
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
    artefacts: { plan: artefactKeys.iteration(run.runId, iteration, 'plan.json') },
  };
}

function buildPlan(
  run: RunRecord,
  record: IterationRecord,
  tasks: readonly TaskRecord[],
  controlOf: ControlOf,
  learning: LearningOf | undefined,
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
    ...(learning ? { learning: learning(task, run) } : {}),
    ...checkpointWork(run),
    ...subtaskOf(task),
  };
}

/**
 * The tasks as the next iteration finds them: a reset the last recorded iteration asked
 * for reopens the stories completed after its checkpoint (the same tasks when none is).
 */
export function tasksAfterPendingReset(
  run: RunRecord,
  tasks: readonly TaskRecord[],
): readonly TaskRecord[] {
  const reset = pendingReset(run);
  return reset ? tasks.map((task) => afterReset(task, reset.checkpoint.iteration)) : tasks;
}

/** The reset the last recorded iteration asked for, if any. */
export function pendingReset(run: RunRecord) {
  const reset = run.control?.reset;
  return reset && reset.after === run.lastRecordedIteration ? reset : undefined;
}

/**
 * The task as it is after a reset to the checkpoint taken at `checkpointIteration`: a
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
function reviewOf(run: RunRecord, task: TaskRecord) {
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
  // Picked again after a block (a new stint that has not run yet).
  if (task.timesBlocked > 0 && task.attempts === task.stintStartAttempts)
    return { status: 'blocked', reason: task.block?.reason ?? 'blocked before' };
  return { status: task.status };
}
