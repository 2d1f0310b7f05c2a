/** The design document's "Automated Iteration Log": one structured record per iteration. */
import { z } from 'zod';
import { ActionTakenSchema } from './actions.js';
import {
  ConvergenceCheckSchema,
  DivergenceCheckSchema,
  JudgeReliabilitySchema,
  RegressionCheckSchema,
} from './checks.js';
import { ComponentHealthSchema } from './health.js';
import { IterationMetricsSchema } from './metrics.js';
import { CheapModeResultSchema } from '../evaluation.js';

const IsoDate = z.iso.datetime({ offset: true });

/** One artefact's line: both scores when both exist, and what the cheap mode caught. */
export const PerArtefactResultSchema = z.object({
  artefactId: z.string(),
  /** `paired`: both modes scored it; otherwise which side is missing or failed. */
  status: z.enum(['paired', 'judge_failed', 'cheap_missing', 'judge_missing']),
  expensiveScore: z.number().nullable(),
  cheapScore: z.number().nullable(),
  /** `expensive − cheap`, only when paired. */
  gap: z.number().nullable(),
  patternsMatched: z.array(z.string()),
  patternsMissed: z.array(z.string()),
  /** The judge's error when its evaluation failed. */
  judgeError: z.string().nullable(),
  /** Each judge weakness and the cheap signals that covered it (see `measureCoverage`). */
  weaknesses: z.array(z.object({ weakness: z.string(), coveredBy: z.array(z.string()) })),
  covered: z.boolean().nullable(),
});
export type PerArtefactResult = z.infer<typeof PerArtefactResultSchema>;

export const NextIterationPlanSchema = z.object({
  focus: z.string(),
  proposedPatterns: z.number().int().nonnegative(),
});
export type NextIterationPlan = z.infer<typeof NextIterationPlanSchema>;

export const IterationLogSchema = z.object({
  iteration: z.number().int().nonnegative(),
  timestamp: IsoDate,
  patternSetVersion: z.number().int().positive(),
  componentHealth: ComponentHealthSchema,
  metrics: IterationMetricsSchema,
  judgeReliability: JudgeReliabilitySchema,
  divergenceCheck: DivergenceCheckSchema,
  regressionCheck: RegressionCheckSchema,
  perArtefactResults: z.array(PerArtefactResultSchema),
  /** Lifecycle events applied this iteration, then the recovery actions planned. */
  actionsTaken: z.array(ActionTakenSchema),
  convergenceCheck: ConvergenceCheckSchema,
  nextIterationPlan: NextIterationPlanSchema.optional(),
});
export type IterationLog = z.infer<typeof IterationLogSchema>;

/**
 * An iteration's stored `log.json`: the design document's log plus what analyze-gap adds
 * (the actions it carried out, the proposer's report, the next set's version): analyze-gap
 * writes it through this schema and `ralph show` reads it back. Unknown fields are kept,
 * so `--json` prints the log as stored.
 */
export const StoredIterationLogSchema = IterationLogSchema.extend({
  actionsCarriedOut: z.array(z.string()).default([]),
  proposals: z.object({ learned: z.boolean(), reason: z.string() }).loose().optional(),
  judgeRerun: z.boolean().default(false),
  rolledBackTo: z.number().int().positive().optional(),
  nextPatternSetVersion: z.number().int().positive().optional(),
  /** After a rollback: the cheap mode's results again, with the set rolled back to. */
  rescored: z.array(CheapModeResultSchema).optional(),
}).loose();
export type StoredIterationLog = z.infer<typeof StoredIterationLogSchema>;
