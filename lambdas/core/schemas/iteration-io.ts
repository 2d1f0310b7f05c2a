import { z } from 'zod';
import { ReviewFindingSchema } from './review.js';
import { PrdSchema } from './prd.js';
import { RunConfigSchema } from './config.js';
import {
  IterationDurationsSchema,
  IterationOutcomeSchema,
  IterationReportFields,
  RepoRefSchema,
} from './records.js';

/** What the runner reports for one iteration (`result.json`), read by record-iteration. */
export const IterationResultSchema = z.object({
  runId: z.string(),
  iteration: z.number().int().positive(),
  taskId: z.string(),
  outcome: IterationOutcomeSchema,
  /** Text for the next agent when this iteration did not pass. */
  failureDetail: z.string().default(''),
  durations: IterationDurationsSchema,
  startedAt: z.iso.datetime({ offset: true }),
  endedAt: z.iso.datetime({ offset: true }),
  /** The subtask this iteration worked on, when the story is decomposed. */
  subtaskId: z.string().optional(),
  /**
   * What quality enforcement found on a passed iteration that should be looked at but does
   * not block (`assessQuality`): the task goes to review instead of completing.
   */
  review: z.object({ findings: z.array(ReviewFindingSchema).min(1) }).optional(),
  ...IterationReportFields,
});
export type IterationResult = z.infer<typeof IterationResultSchema>;

/** Choices the state machine branches on after assess. */
export const LOOP_ACTIONS = [
  'continue',
  'new_segment',
  'complete',
  'pause',
  'abort',
  'max_iterations',
  'cancel',
] as const;
export const LoopActionSchema = z.enum(LOOP_ACTIONS);
export type LoopAction = z.infer<typeof LoopActionSchema>;

/**
 * The state machine's whole state between steps: pointers, never bulk data (a Step
 * Functions payload is capped at 256 KiB).
 */
export const LoopStateSchema = z.object({
  runId: z.string().min(1),
  segment: z.number().int().positive(),
  /** Present once prepare-iteration has handed out an iteration number. */
  iteration: z.number().int().positive().optional(),
  action: LoopActionSchema.optional(),
  /** Why assess chose `action`, in words (stored as the run's stop reason when it stops). */
  reason: z.string().optional(),
  /**
   * Set by record-iteration when the run goes on and it has planned the next iteration
   * (`iteration` is then the new one): the state machine goes straight to RunAgent.
   */
  planned: z.boolean().optional(),
  /** Set by record-iteration when the run evaluates its iterations (dual-mode evaluation). */
  evaluate: z.boolean().optional(),
  /**
   * Set by collect-artefacts when the iteration is evaluated: the ids the judge's Map runs
   * over (bounded by the suite's `maxDocuments`) and how many judge calls run at once.
   */
  evaluation: z
    .object({
      artefactIds: z.array(z.string().min(1)).max(201),
      judgeConcurrency: z.number().int().positive(),
    })
    .optional(),
  /** Set by a Catch: the error that stopped a step (`Error` / `Cause` as Step Functions gives them). */
  error: z.object({ Error: z.string(), Cause: z.string().optional() }).optional(),
});
export type LoopState = z.infer<typeof LoopStateSchema>;

/**
 * What a submitter (the CLI, the API) stores at `runs/{runId}/request.json` before starting
 * segment 1; init-run validates it and creates the run from it.
 */
export const RunRequestSchema = z.object({
  runId: z.string().min(1),
  projectId: z.string().min(1),
  repo: RepoRefSchema,
  prdPath: z.string().min(1),
  prd: PrdSchema,
  config: RunConfigSchema,
  submittedAt: z.iso.datetime({ offset: true }),
});
export type RunRequest = z.infer<typeof RunRequestSchema>;
