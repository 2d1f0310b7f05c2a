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
import type { IterationResult } from '../schemas/iteration-io.js';
import type { IterationOutcome } from '../schemas/outcome.js';
import type { TaskRecord, TaskReview, TaskSubtask } from '../schemas/records.js';

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
  const counted = { ...task, attempts: task.attempts + 1, lastIteration: result.iteration };
  const done = { ...counted, lastOutcome: result.outcome };
  const failed = FAILED_ATTEMPTS.has(result.outcome);
  const inReview = task.status === 'in_review';
  // Iterations on a task in review that were the task's own (passed or failed).
  const reviews =
    (task.review?.reviews ?? 0) + (inReview && (failed || result.outcome === 'passed') ? 1 : 0);
  if (result.outcome === 'passed') {
    // A decomposed story completes with its last subtask.
    const subtasks = task.subtasks?.map((subtask) =>
      subtask.id === result.subtaskId ? { ...subtask, status: 'complete' as const } : subtask,
    );
    if (subtasks?.some((subtask) => subtask.status === 'open'))
      return { ...done, status: 'in_progress', subtasks, stintStartAttempts: counted.attempts };
    const findings = result.review?.findings ?? [];
    const maxReviews = limits.maxReviewIterations ?? DEFAULT_MAX_REVIEW_ITERATIONS;
    const review: TaskReview = { findings, reviews, iteration: result.iteration };
    const withSubtasks = subtasks ? { subtasks } : {};
    if (findings.length > 0 && reviews < maxReviews)
      return {
        ...done,
        ...withSubtasks,
        status: 'in_review',
        review,
        stintStartAttempts: counted.attempts,
      };
    return {
      ...done,
      ...withSubtasks,
      status: 'complete',
      completedAt: now,
      // A task never reviewed and without findings keeps the record it always had.
      ...(findings.length > 0 || task.review ? { review } : {}),
    };
  }
  if (inReview && !failed) return { ...done, status: 'in_review' };
  // A failed review iteration (its change reset, `no_changes` included: the reviewer found
  // nothing to change) is a review spent. The story passed its blocking gates already and
  // its commit stands: a review never sends it back to work, blocks or splits it.
  if (inReview) {
    const review = {
      findings: task.review?.findings ?? [],
      iteration: task.review?.iteration ?? result.iteration,
      reviews,
    };
    if (reviews >= (limits.maxReviewIterations ?? DEFAULT_MAX_REVIEW_ITERATIONS))
      return { ...done, status: 'complete', completedAt: now, review };
    return { ...done, status: 'in_review', review };
  }
  const reviewed = task.review ? { review: { ...task.review, reviews } } : {};
  // Too complex (design §3.5): worked on one subtask at a time from now on, a new stint.
  // Not once its story passed (a review began): what is left is the review's.
  if (!task.subtasks && !task.review && failed) {
    const split = tooComplex(task, result, limits.previousErrors);
    if (split)
      return {
        ...done,
        status: 'in_progress',
        subtasks: split,
        stintStartAttempts: counted.attempts,
      };
  }
  const failedInStint = counted.attempts - task.stintStartAttempts;
  if (failed && failedInStint >= limits.maxTaskAttempts)
    return {
      ...done,
      ...reviewed,
      status: 'blocked',
      blockedAt: now,
      blockedReason: `${failedInStint} attempts failed; last: ${result.cause ?? result.outcome}`,
      timesBlocked: task.timesBlocked + 1,
    };
  return { ...done, ...reviewed, status: 'in_progress' };
}

const DEFAULT_MAX_REVIEW_ITERATIONS = DEFAULT_LOOP_CONTROL_CONFIG.quality.maxReviewIterations;

/** The story's subtasks when the failure says it is too complex, and it can be split. */
function tooComplex(
  task: TaskRecord,
  result: IterationResult,
  previousErrors: string[],
): TaskSubtask[] | undefined {
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
