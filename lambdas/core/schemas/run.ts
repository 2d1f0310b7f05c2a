/** A run's record (DynamoDB): where its code is, its config, its counters and its state. */
import { z } from 'zod';
import { RunConfigSchema } from './config.js';
import { RunControlStateSchema } from './control.js';
import { RunEvaluationStateSchema } from './evaluation-records.js';
import { RunInvestigationSchema } from './investigation.js';
import { IterationOutcomeSchema } from './outcome.js';

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
  /** Where the failed attempt's change was kept (a ref in the repository), for the next agent. */
  evidenceRef: z.string().optional(),
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
  /** USD: the sum of the receipts of the iterations counted (what `limits.maxCostUsd` holds). */
  costUsd: z.number().nonnegative().default(0),
  lastFailure: FailureSchema.optional(),
  cancelRequested: z.boolean().default(false),
  /** Why the run stopped or paused, in words. */
  stopReason: z.string().optional(),
  /** Dual-mode evaluation across iterations (absent when evaluation is off). */
  evaluation: RunEvaluationStateSchema.optional(),
  /** Loop control across iterations: the history its decisions read, the latest decisions. */
  control: RunControlStateSchema.optional(),
  endedAt: IsoDate.optional(),
  /** An investigate run's error groups and settings (absent on a run of prd.json stories). */
  investigation: RunInvestigationSchema.optional(),
});
export type RunRecord = z.infer<typeof RunRecordSchema>;
