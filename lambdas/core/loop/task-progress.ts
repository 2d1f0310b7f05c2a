/**
 * A task after an iteration on it (design §3.4 task states, §3.5 decomposition, §3.9
 * quality enforcement). "Failed" is an outcome that costs an attempt (`FAILED_ATTEMPTS`);
 * the others (cancelled, interrupted, a runner fault, a missing or dirty workspace) are
 * not the task's. A review iteration is one that ran while the task was in review;
 * `review.reviews` counts them.
 *
 * | from                     | iteration                                         | to                                               |
 * | ------------------------ | ------------------------------------------------- | ------------------------------------------------ |
 * | any                      | passed, a decomposed story's subtask not its last  | in_progress, the subtask complete (a new stint)  |
 * | any                      | passed, no review findings                         | complete                                         |
 * | any                      | passed with findings, reviews < maxReviewIterations | in_review with the findings (a new stint)      |
 * | any                      | passed with findings, reviews at the limit          | complete, the findings kept                    |
 * | in_review                | failed (no_changes included), reviews < max        | in_review, the review spent, findings kept       |
 * | in_review                | failed, reviews at the limit                       | complete, the findings kept                      |
 * | in_review                | not the task's (cancelled, runner fault...)        | in_review, no review counted                     |
 * | not_started, in_progress | failed, too complex, never reviewed                 | in_progress, decomposed into subtasks (a new stint) |
 * | not_started, in_progress | failed `maxTaskAttempts` times in the stint        | blocked                                          |
 * | not_started, in_progress | anything else                                      | in_progress                                      |
 *
 * A stint's attempts count failures in a row: a pass (a subtask done, a review begun)
 * starts a new stint. Only the iteration that would complete the story goes to review:
 * a decomposed story's earlier subtasks are not held up by findings. A task that has been
 * in review is never decomposed: its story passed once already.
 */
import { DEFAULT_LOOP_CONTROL_CONFIG } from '../schemas/control-config.js';
import { classifyFailure } from '../control/retry/classify-failure.js';
import { decomposeStory } from '../control/retry/decompose.js';
import type { IterationResult } from '../schemas/iteration-result.js';
import type { IterationOutcome } from '../schemas/outcome.js';
import type { Subtask, TaskRecord, TaskReview } from '../schemas/task.js';

/** Outcomes that cost the task an attempt (a cancel or a runner fault is not the task's). */
const FAILED_ATTEMPTS: ReadonlySet<IterationOutcome> = new Set([
  'gates_failed',
  'no_changes',
  'agent_failed',
  'agent_crashed',
  'agent_timeout',
]);

export interface TaskProgressLimits {
  maxTaskAttempts: number;
  /** Error signatures of the task's earlier failures (too-complex detection). */
  previousErrors: string[];
  /** `control.quality.maxReviewIterations`; its default when absent. */
  maxReviewIterations?: number;
}

/**
 * The task after an iteration on it (transitions in the module comment).
 *
 * @example
 * nextTaskState(task, result, clock.now().toISOString(), {
 *   maxTaskAttempts: config.control.loop.maxTaskAttempts,
 *   maxReviewIterations: config.control.quality.maxReviewIterations,
 *   previousErrors,
 * }).status // 'in_review' when the result carries review findings
 */
export function nextTaskState(
  task: TaskRecord,
  result: IterationResult,
  now: string,
  limits: TaskProgressLimits,
): TaskRecord {
  const failed = FAILED_ATTEMPTS.has(result.outcome);
  const step: Step = {
    task,
    result,
    now,
    limits,
    failed,
    counted: {
      ...fieldsOf(task),
      attempts: task.attempts + 1,
      lastIteration: result.iteration,
      lastOutcome: result.outcome,
    },
    // Iterations on a task in review that were the task's own (passed or failed).
    reviews:
      (task.review?.reviews ?? 0) +
      (task.status === 'in_review' && (failed || result.outcome === 'passed') ? 1 : 0),
  };
  if (result.outcome === 'passed') return afterPass(step);
  if (task.status === 'in_review') return afterReviewIteration(step, task.review);
  return afterWork(step);
}

/** What the transitions read: the iteration, the task, and the task with the iteration counted. */
interface Step {
  task: TaskRecord;
  result: IterationResult;
  now: string;
  limits: TaskProgressLimits;
  /** The outcome costs the task an attempt. */
  failed: boolean;
  counted: TaskFields;
  /** Review iterations so far, this one included. */
  reviews: number;
}

/** The fields every status keeps: what the task is without its status's own. */
export type TaskFields = Omit<Extract<TaskRecord, { status: 'in_progress' }>, 'status'>;

export function fieldsOf(task: TaskRecord): TaskFields {
  if (task.status === 'complete') {
    const { status: _status, completedAt: _completedAt, ...fields } = task;
    return fields;
  }
  const { status: _status, ...fields } = task;
  return fields;
}

/** Passed: a subtask done, or the story done (complete, or in review with findings). */
function afterPass({ task, result, now, limits, counted, reviews }: Step): TaskRecord {
  // A decomposed story completes with its last subtask.
  const subtasks = task.subtasks?.map((subtask) =>
    subtask.id === result.subtaskId ? { ...subtask, status: 'complete' as const } : subtask,
  );
  const done = subtasks ? { ...counted, subtasks } : counted;
  if (subtasks?.some((subtask) => subtask.status === 'open'))
    return { ...done, status: 'in_progress', stintStartAttempts: counted.attempts };
  const findings = result.review?.findings ?? [];
  const review: TaskReview = { findings, reviews, iteration: result.iteration };
  if (findings.length > 0 && reviews < maxReviews(limits))
    return { ...done, status: 'in_review', review, stintStartAttempts: counted.attempts };
  // A task never reviewed and without findings keeps the record it always had.
  const { review: _previous, ...unreviewed } = done;
  return findings.length > 0 || task.review
    ? { ...unreviewed, status: 'complete', completedAt: now, review }
    : { ...unreviewed, status: 'complete', completedAt: now };
}

/**
 * A review iteration that did not pass. Failed (its change reset, `no_changes` included:
 * the reviewer found nothing to change), it is a review spent; not the task's (cancelled,
 * a runner fault), nothing changes. The story passed its blocking gates already and its
 * commit stands: a review never sends it back to work, blocks or splits it.
 */
function afterReviewIteration(
  { now, limits, failed, counted, reviews }: Step,
  current: TaskReview,
): TaskRecord {
  if (!failed) return { ...counted, status: 'in_review', review: current };
  const review = { findings: current.findings, iteration: current.iteration, reviews };
  if (reviews >= maxReviews(limits))
    return { ...counted, status: 'complete', completedAt: now, review };
  return { ...counted, status: 'in_review', review };
}

/** An iteration of work that did not pass: decomposed, blocked, or still in progress. */
function afterWork({ task, result, now, limits, failed, counted, reviews }: Step): TaskRecord {
  const work: TaskFields = task.review
    ? { ...counted, review: { ...task.review, reviews } }
    : counted;
  // Too complex (design §3.5): worked on one subtask at a time from now on, a new stint.
  // Not once its story passed (a review began): what is left is the review's.
  if (!task.subtasks && !task.review && failed) {
    const split = tooComplex(task, result, limits.previousErrors);
    if (split)
      return {
        ...counted,
        status: 'in_progress',
        subtasks: split,
        stintStartAttempts: counted.attempts,
      };
  }
  const failedInStint = counted.attempts - task.stintStartAttempts;
  if (failed && failedInStint >= limits.maxTaskAttempts)
    return {
      ...work,
      status: 'blocked',
      block: {
        reason: `${failedInStint} attempts failed; last: ${result.cause ?? result.outcome}`,
        at: now,
      },
      timesBlocked: task.timesBlocked + 1,
    };
  return { ...work, status: 'in_progress' };
}

function maxReviews(limits: TaskProgressLimits): number {
  return limits.maxReviewIterations ?? DEFAULT_MAX_REVIEW_ITERATIONS;
}

const DEFAULT_MAX_REVIEW_ITERATIONS = DEFAULT_LOOP_CONTROL_CONFIG.quality.maxReviewIterations;

/** The story's subtasks when the failure says it is too complex, and it can be split. */
function tooComplex(
  task: TaskRecord,
  result: IterationResult,
  previousErrors: string[],
): Subtask[] | undefined {
  const observed = result.observation;
  const classification = classifyFailure({
    outcome: result.outcome,
    gates: result.gates,
    previousErrors,
    ...(observed ? { linesChanged: observed.linesAdded + observed.linesRemoved } : {}),
  });
  if (classification.kind !== 'too_complex') return undefined;
  const split = decomposeStory(task.story);
  if (!split.decomposable) return undefined;
  return split.subtasks.map((subtask) => ({
    id: subtask.id,
    title: subtask.title,
    acceptanceCriteria: subtask.acceptanceCriteria,
    status: 'open' as const,
  }));
}
