import { z } from 'zod';
import { RunConfigSchema } from './config.js';
import {
  IterationEvaluationSummarySchema,
  RunEvaluationStateSchema,
} from './evaluation-records.js';
import { RunnerObservationSchema } from './observation.js';
import { AgentModeSchema } from './control-history.js';
import { IterationControlSchema, RunControlStateSchema } from './control.js';
import { GateResultSchema } from './gate-result.js';
import { ReviewFindingSchema } from './review.js';
import { IterationOutcomeSchema } from './outcome.js';

export { ITERATION_OUTCOMES, IterationOutcomeSchema, type IterationOutcome } from './outcome.js';
import { UserStorySchema } from './prd.js';

export { GateResultSchema, type GateResult } from './gate-result.js';

const IsoDate = z.iso.datetime({ offset: true });

/** Where the run's code lives: a local working copy, or a git URL the container clones. */
export const RepoRefSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('local'), path: z.string().min(1) }),
  z.object({ kind: z.literal('git'), url: z.string().min(1) }),
]);
export type RepoRef = z.infer<typeof RepoRefSchema>;

export const RUN_STATUSES = [
  'running',
  'paused',
  'completed',
  'max_iterations',
  'aborted',
  'cancelled',
  'failed',
] as const;
export const RunStatusSchema = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof RunStatusSchema>;

/** The cause of an iteration that did not pass, carried into the next prompt. */
export const FailureSchema = z.object({
  iteration: z.number().int().positive(),
  taskId: z.string().optional(),
  outcome: IterationOutcomeSchema,
  summary: z.string(),
  /** Gate output (tail) or agent error text: what the next agent needs to see. */
  detail: z.string().default(''),
});
export type Failure = z.infer<typeof FailureSchema>;

export const RunRecordSchema = z.object({
  runId: z.string().min(1),
  projectId: z.string().min(1),
  status: RunStatusSchema,
  /** Optimistic-locking version: every write is conditional on the previous one. */
  version: z.number().int().positive(),
  createdAt: IsoDate,
  updatedAt: IsoDate,
  repo: RepoRefSchema,
  /** The prd file, relative to the repository root when inside it, else absolute (local mode). */
  prdPath: z.string().min(1),
  branchName: z.string().min(1),
  project: z.string(),
  config: RunConfigSchema,
  segment: z.number().int().positive(),
  /** The highest iteration number handed out; iteration numbers are never reused. */
  iterationsStarted: z.number().int().nonnegative(),
  /** iterationsStarted when the current segment began: segments are cut by count. */
  segmentStartIteration: z.number().int().nonnegative().default(0),
  /** The last iteration record-iteration counted, so a retried record is not counted twice. */
  lastRecordedIteration: z.number().int().nonnegative().default(0),
  iterationsCompleted: z.number().int().nonnegative(),
  storiesTotal: z.number().int().nonnegative(),
  storiesPassed: z.number().int().nonnegative(),
  consecutiveFailures: z.number().int().nonnegative(),
  lastFailure: FailureSchema.optional(),
  cancelRequested: z.boolean().default(false),
  /** Why the run stopped or paused, in words. */
  stopReason: z.string().optional(),
  /** Dual-mode evaluation across iterations (absent when evaluation is off). */
  evaluation: RunEvaluationStateSchema.optional(),
  /** Loop control across iterations: the history its decisions read, the latest decisions. */
  control: RunControlStateSchema.optional(),
  endedAt: IsoDate.optional(),
});
export type RunRecord = z.infer<typeof RunRecordSchema>;

export const ITERATION_STATUSES = ['planned', 'running', 'recorded'] as const;

export const IterationDurationsSchema = z.object({
  agentMs: z.number().nonnegative(),
  gatesMs: z.number().nonnegative(),
  /** The runner's own time: git, uploads, bookkeeping (agent and gates excluded). */
  runnerMs: z.number().nonnegative(),
});

/** What the runner reports about an iteration; the iteration record keeps the same fields. */
export const IterationReportFields = {
  cause: z.string().optional(),
  gates: z.array(GateResultSchema).default([]),
  commit: z.string().optional(),
  /** The side ref that keeps a reset change as evidence. */
  evidenceRef: z.string().optional(),
  agentExitCode: z.number().int().nullable().optional(),
  /** The agent said `<promise>COMPLETE</promise>`: a claim, never a verdict. */
  agentClaimedComplete: z.boolean().default(false),
  filesChanged: z.array(z.string()).default([]),
  /** The change's size, the gates' counts and the agent's activity (loop control reads it). */
  observation: RunnerObservationSchema.optional(),
  /** Ids of the documents the evaluation suite wrote (artefacts of kind `document`). */
  documents: z.array(z.string()).default([]),
  /** Artefact kind → S3 key, for every artefact this iteration wrote. */
  artefacts: z.record(z.string(), z.string()).default({}),
};

export const IterationRecordSchema = z.object({
  runId: z.string().min(1),
  iteration: z.number().int().positive(),
  segment: z.number().int().positive(),
  status: z.enum(ITERATION_STATUSES),
  version: z.number().int().positive(),
  taskId: z.string(),
  taskTitle: z.string(),
  /** Which attempt at this task this iteration is (1 for the first). */
  attempt: z.number().int().positive(),
  plannedAt: IsoDate,
  startedAt: IsoDate.optional(),
  endedAt: IsoDate.optional(),
  outcome: IterationOutcomeSchema.optional(),
  durations: IterationDurationsSchema.optional(),
  ...IterationReportFields,
  evaluation: IterationEvaluationSummarySchema.optional(),
  /** The mode (role) the iteration's prompt gave the agent. */
  mode: AgentModeSchema.default('implementer'),
  /** Loop control's view: progress signals, supervisor verdict, stagnation, risk. */
  control: IterationControlSchema.optional(),
});
export type IterationRecord = z.infer<typeof IterationRecordSchema>;

/**
 * A task's state (design §3.4). `blocked`: it failed `control.loop.maxTaskAttempts` times in
 * a row and is skipped while other stories are open. `in_review`: its gates passed with
 * review findings (quality enforcement, §3.9); it is continued first, and completes once a
 * review iteration passes without findings or after `control.quality.maxReviewIterations`.
 * Transitions: loop/task-progress.ts.
 */
export const TASK_STATUSES = [
  'not_started',
  'in_progress',
  'blocked',
  'in_review',
  'complete',
] as const;
export const TaskRecordStatusSchema = z.enum(TASK_STATUSES);
export type TaskRecordStatus = z.infer<typeof TaskRecordStatusSchema>;

/** A task's review: the latest findings, and how many review iterations it has had. */
export const TaskReviewSchema = z.object({
  /** The findings of the latest passed iteration (kept when the task completes with them). */
  findings: z.array(ReviewFindingSchema),
  /** Iterations run while the task was in review (passed or failed). */
  reviews: z.number().int().nonnegative().default(0),
  /** The iteration whose findings these are. */
  iteration: z.number().int().positive(),
});
export type TaskReview = z.infer<typeof TaskReviewSchema>;

/** A piece of a story decomposed after it proved too complex (design §3.5). */
export const TaskSubtaskSchema = z.object({
  /** `<story id>.<n>` */
  id: z.string().min(1),
  title: z.string().min(1),
  acceptanceCriteria: z.array(z.string()),
  status: z.enum(['open', 'complete']),
});
export type TaskSubtask = z.infer<typeof TaskSubtaskSchema>;

export const TaskRecordSchema = z.object({
  runId: z.string().min(1),
  taskId: z.string().min(1),
  title: z.string(),
  priority: z.number().int(),
  /** The story's position in prd.json: Ralph breaks priority ties by file order. */
  order: z.number().int().nonnegative().default(0),
  /** The story as prd.json had it when the run started: what each iteration's plan carries. */
  story: UserStorySchema,
  status: TaskRecordStatusSchema,
  version: z.number().int().positive(),
  attempts: z.number().int().nonnegative(),
  lastIteration: z.number().int().positive().optional(),
  lastOutcome: IterationOutcomeSchema.optional(),
  completedAt: IsoDate.optional(),
  /** Why the task is blocked, and since when (its last error, in words). */
  blockedReason: z.string().optional(),
  blockedAt: IsoDate.optional(),
  /** Times the task was blocked; a task picked again after a block starts a new count. */
  timesBlocked: z.number().int().nonnegative().default(0),
  /** `attempts` when the current stint began (0, or when it was picked again after a block). */
  stintStartAttempts: z.number().int().nonnegative().default(0),
  /** Set once the story proved too complex: it is then worked on one subtask at a time. */
  subtasks: z.array(TaskSubtaskSchema).min(2).optional(),
  /** Present once a passed iteration left review findings (see `TASK_STATUSES`). */
  review: TaskReviewSchema.optional(),
});
export type TaskRecord = z.infer<typeof TaskRecordSchema>;
