/**
 * A task's place in the loop (design section 3.4): not started, in progress, blocked, in
 * review or complete, with what each state needs to decide the next step. The `status`
 * values extend `TaskRecord.status`, so stored records migrate by adding fields.
 */
import { z } from 'zod';

const IsoDate = z.iso.datetime({ offset: true });
const count = () => z.number().int().nonnegative();

/**
 * What a task in progress (or in review) carries: enough to measure its budget, count its
 * failed attempts and send it back to work after a failed review.
 */
const WorkFields = {
  startedAt: IsoDate,
  /** The iteration that started this stint on the task. */
  startedIteration: z.number().int().positive(),
  /** Iterations that ended on this task since `startedAt`. */
  iterationsSpent: count(),
  lastAttemptSummary: z.string(),
  /** Failed iterations since `startedAt`: reaching `maxTaskAttempts` blocks the task. */
  attempts: count(),
  lastError: z.string().optional(),
  /** The newest failure texts of this stint, oldest first (see `recentErrorsKept`). */
  recentErrors: z.array(z.string()).default([]),
  /** How often the task was blocked before this stint (a task unblocked carries it on). */
  timesBlocked: count().default(0),
};

export const NotStartedStateSchema = z.object({ status: z.literal('not_started') });

export const InProgressStateSchema = z.object({
  status: z.literal('in_progress'),
  ...WorkFields,
});

export const BlockedStateSchema = z.object({
  status: z.literal('blocked'),
  reason: z.string(),
  /** Failed attempts of the stint that ended in the block. */
  attempts: count(),
  lastError: z.string(),
  blockedAt: IsoDate,
  /** Including this block. */
  timesBlocked: z.number().int().positive().default(1),
});

export const InReviewStateSchema = z.object({
  status: z.literal('in_review'),
  testsPassing: z.boolean(),
  lintClean: z.boolean(),
  ...WorkFields,
});

export const CompleteStateSchema = z.object({
  status: z.literal('complete'),
  completedAt: IsoDate,
  iteration: z.number().int().positive(),
});

export const TaskStateSchema = z.discriminatedUnion('status', [
  NotStartedStateSchema,
  InProgressStateSchema,
  BlockedStateSchema,
  InReviewStateSchema,
  CompleteStateSchema,
]);
export type TaskState = z.infer<typeof TaskStateSchema>;
export type InProgressState = z.infer<typeof InProgressStateSchema>;
export type BlockedState = z.infer<typeof BlockedStateSchema>;
export type InReviewState = z.infer<typeof InReviewStateSchema>;
export type CompleteState = z.infer<typeof CompleteStateSchema>;

/** `US-002.1`: the story id, a dot, the subtask's 1-based position. */
export const SubtaskIdSchema = z.string().regex(/^.+\.\d+$/, 'a subtask id is <story id>.<n>');

/** One piece of a decomposed story: a subset of its acceptance criteria, with its own state. */
export const SubtaskSchema = z.object({
  id: SubtaskIdSchema,
  title: z.string().min(1),
  acceptanceCriteria: z.array(z.string()),
  state: TaskStateSchema,
});
export type Subtask = z.infer<typeof SubtaskSchema>;

/**
 * The first subtask not yet complete, with its 1-based position; undefined when the task
 * has no subtasks or all of them are complete.
 *
 * @example
 * nextOpenSubtask(task)?.subtask.id // 'US-002.2'
 */
export function nextOpenSubtask(task: {
  subtasks?: readonly Subtask[];
}): { subtask: Subtask; position: number } | undefined {
  const index = (task.subtasks ?? []).findIndex((subtask) => subtask.state.status !== 'complete');
  const subtask = task.subtasks?.[index];
  return subtask && { subtask, position: index + 1 };
}
