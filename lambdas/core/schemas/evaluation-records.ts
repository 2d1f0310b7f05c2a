import { z } from 'zod';

const IsoDate = z.iso.datetime({ offset: true });
const Figure = z.number().nullable();

/**
 * One iteration's dual-mode evaluation, summarised on its DynamoDB record (the whole
 * iteration log is `log.json` on S3): what the live line and `ralph show` print.
 */
export const IterationEvaluationSummarySchema = z.object({
  artefacts: z.number().int().nonnegative(),
  /** Artefacts the judge scored (ok) and that failed. */
  judged: z.number().int().nonnegative(),
  judgeFailed: z.number().int().nonnegative(),
  judgeUnreliable: z.boolean(),
  /** The judge was re-run and the median taken (unreliable, or high variance). */
  judgeRerun: z.boolean(),
  expensiveAvg: Figure,
  cheapAvg: Figure,
  gap: Figure,
  gapDelta: Figure,
  mae: Figure,
  spearman: Figure,
  qwk: Figure,
  coverage: Figure,
  /** The pattern set that scored this iteration, and the one the next iteration uses. */
  patternSetVersion: z.number().int().positive(),
  nextPatternSetVersion: z.number().int().positive(),
  activePatterns: z.number().int().nonnegative(),
  provisionalPatterns: z.number().int().nonnegative(),
  patternsProposed: z.number().int().nonnegative(),
  patternsCommitted: z.number().int().nonnegative(),
  patternsRejected: z.number().int().nonnegative(),
  regression: z.boolean(),
  rolledBackTo: z.number().int().positive().optional(),
  divergence: z.array(z.string()).default([]),
  healthFlags: z.array(z.string()).default([]),
  /** Recovery actions carried out, by type. */
  actions: z.array(z.string()).default([]),
  converged: z.boolean(),
  /**
   * Why convergence holds or does not, in words: the rules with their numbers
   * (`ρ 0.30 < 0.6, QWK 0.00 < 0.6 (cheap ≥ 4.0 held, |gap| ≤ 0.5 held)`; see
   * describeConvergence). Older records: `converged: every check held`, `not yet: <checks>`.
   */
  convergence: z.string(),
  costUsd: z.number().nonnegative(),
  logKey: z.string(),
});
export type IterationEvaluationSummary = z.infer<typeof IterationEvaluationSummarySchema>;

/**
 * What a run carries from one iteration's analysis to the next: where the calibration
 * history is, the recovery actions' lasting effects, and whether it converged.
 */
export const RunEvaluationStateSchema = z.object({
  lastAnalysedIteration: z.number().int().nonnegative().default(0),
  /** The S3 key of the last analysis (`gap.json`, which carries the calibration history). */
  lastAnalysisKey: z.string().optional(),
  patternSetVersion: z.number().int().positive().optional(),
  /** Recovery `reduce_learning_rate`: multiplies the weight learning rate from now on. */
  learningRateFactor: z.number().positive().max(1).default(1),
  /** Recovery `increase_validation_threshold`: the raised accuracy, once raised. */
  validateMinAccuracy: z.number().min(0).max(1).optional(),
  /** Recovery `increase_proposal_diversity`: the proposer is asked for a new category. */
  proposalDiversity: z.boolean().default(false),
  converged: z.boolean().default(false),
  convergedIteration: z.number().int().positive().optional(),
  proofKey: z.string().optional(),
  convergedAt: IsoDate.optional(),
  /**
   * The last analysed iteration's convergence in words: the rules that held or failed,
   * with their numbers (what a run's stop reason says when it has not converged).
   */
  lastConvergence: z.string().optional(),
});
export type RunEvaluationState = z.infer<typeof RunEvaluationStateSchema>;
