/** The state machine's state between steps. */
import { z } from 'zod';
import { LoopActionSchema } from './loop-action.js';

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
   * Set by advance when the run is an investigate run: the state machine takes the
   * iteration's verdict to the code host (OpenFixPullRequest) after the runner.
   */
  investigate: z.boolean().optional(),
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
