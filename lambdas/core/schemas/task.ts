/**
 * A task: one story of the run, its place in the loop (design §3.4) and what that place
 * needs, stored as one DynamoDB item. Transitions: loop/task-progress.ts.
 *
 * The status is a union whose variants carry their own fields: a `blocked` task says why
 * and since when (`block`); a task `in_review` carries its `review` (the findings of the
 * pass that sent it there); a `complete` one when it completed. A decomposed story (§3.5)
 * carries its `subtasks` whatever its status.
 *
 * Stored items carry `schemaVersion`. An item written before it (version 1: a flat record
 * with `blockedReason` and `blockedAt`) still reads: {@link TaskRecordSchema} lifts it.
 */
import { z } from 'zod';
import { IterationOutcomeSchema } from './outcome.js';
import { UserStorySchema } from './prd.js';
import { ReviewFindingSchema } from './review.js';

const IsoDate = z.iso.datetime({ offset: true });
const Count = z.number().int().nonnegative();

/** The version of the task item this code writes. */
export const TASK_SCHEMA_VERSION = 2;

/**
 * `blocked`: it failed `control.loop.maxTaskAttempts` times in a row and is skipped while
 * other stories are open. `in_review`: its gates passed with review findings (quality
 * enforcement, §3.9); it is continued first, and completes once a review iteration passes
 * without findings or after `control.quality.maxReviewIterations`.
 */
export const TASK_STATUSES = [
  'not_started',
  'in_progress',
  'blocked',
  'in_review',
  'complete',
] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** A task's review: the latest findings, and how many review iterations it has had. */
export const TaskReviewSchema = z.object({
  /** The findings of the latest passed iteration (kept when the task completes with them). */
  findings: z.array(ReviewFindingSchema),
  /** Iterations run while the task was in review (passed or failed). */
  reviews: Count.default(0),
  /** The iteration whose findings these are. */
  iteration: z.number().int().positive(),
});
export type TaskReview = z.infer<typeof TaskReviewSchema>;

/** Why a task was blocked (its last error, in words), and when. */
export const TaskBlockSchema = z.object({ reason: z.string(), at: IsoDate });
export type TaskBlock = z.infer<typeof TaskBlockSchema>;

/** `US-002.1`: the story id, a dot, the subtask's 1-based position. */
export const SubtaskIdSchema = z.string().regex(/^.+\.\d+$/, 'a subtask id is <story id>.<n>');

/** A piece of a story decomposed after it proved too complex (design §3.5). */
export const SubtaskSchema = z.object({
  id: SubtaskIdSchema,
  title: z.string().min(1),
  acceptanceCriteria: z.array(z.string()),
  status: z.enum(['open', 'complete']),
});
export type Subtask = z.infer<typeof SubtaskSchema>;

/** What every task carries, whatever its status. */
const TaskFields = {
  schemaVersion: z.literal(TASK_SCHEMA_VERSION),
  runId: z.string().min(1),
  taskId: z.string().min(1),
  title: z.string(),
  priority: z.number().int(),
  /** The story's position in prd.json: Ralph breaks priority ties by file order. */
  order: Count.default(0),
  /** The story as prd.json had it when the run started: what each iteration's plan carries. */
  story: UserStorySchema,
  version: z.number().int().positive(),
  /** Iterations counted on this task. */
  attempts: Count,
  /** `attempts` when the current stint began (0, or when it was picked again after a block). */
  stintStartAttempts: Count.default(0),
  lastIteration: z.number().int().positive().optional(),
  lastOutcome: IterationOutcomeSchema.optional(),
  /** Times the task was blocked; a task picked again after a block starts a new stint. */
  timesBlocked: Count.default(0),
  /** The latest block; kept once the task is picked again (its next stint is planned knowing why). */
  block: TaskBlockSchema.optional(),
  /** Set once the story proved too complex: it is then worked on one subtask at a time. */
  subtasks: z.array(SubtaskSchema).min(2).optional(),
  /** The latest review, kept after it (a task completed with findings keeps them). */
  review: TaskReviewSchema.optional(),
};

const TaskRecordV2Schema = z.discriminatedUnion('status', [
  z.object({ ...TaskFields, status: z.literal('not_started') }),
  z.object({ ...TaskFields, status: z.literal('in_progress') }),
  z.object({ ...TaskFields, status: z.literal('blocked'), block: TaskBlockSchema }),
  z.object({ ...TaskFields, status: z.literal('in_review'), review: TaskReviewSchema }),
  z.object({
    ...TaskFields,
    status: z.literal('complete'),
    /** Absent when prd.json had the story passing before the run started. */
    completedAt: IsoDate.optional(),
  }),
]);

/**
 * A task item of version 1 as version 2: `blockedReason` and `blockedAt` become `block`.
 * Anything else (a version 2 item, or something that is no task) passes through unchanged,
 * for the schema to judge.
 */
function liftVersion1(item: unknown): unknown {
  if (typeof item !== 'object' || item === null || 'schemaVersion' in item) return item;
  const { blockedReason, blockedAt, ...rest } = item as Record<string, unknown>;
  return {
    ...rest,
    schemaVersion: TASK_SCHEMA_VERSION,
    ...(typeof blockedReason === 'string' && typeof blockedAt === 'string'
      ? { block: { reason: blockedReason, at: blockedAt } }
      : {}),
  };
}

/** A task record as this code writes it, or as version 1 wrote it (lifted on read). */
export const TaskRecordSchema = z.preprocess(liftVersion1, TaskRecordV2Schema);
export type TaskRecord = z.output<typeof TaskRecordV2Schema>;
export type TaskRecordInput = z.input<typeof TaskRecordV2Schema>;
