/**
 * One iteration's figures (the design document's `IterationMetrics`, extended with the
 * agreement figures and what convergence needs to check).
 */
import { z } from 'zod';

const IsoDate = z.iso.datetime({ offset: true });
/** Derived figures are not range-checked: a mean may sit one rounding step outside 1…5. */
const Figure = z.number();

export const IterationMetricsSchema = z.object({
  iteration: z.number().int().nonnegative(),
  timestamp: IsoDate,
  /** The pattern set version that scored this iteration (what a rollback returns to). */
  patternSetVersion: z.number().int().positive(),
  /** The artefacts both modes scored (judge `ok` and a cheap result), sorted. */
  artefactIds: z.array(z.string()),
  /** Means over `artefactIds`; `null` when no artefact was scored by both modes. */
  expensiveAvg: Figure.nullable(),
  cheapAvg: Figure.nullable(),
  /** `expensiveAvg − cheapAvg`: positive when the cheap mode under-scores. */
  gap: Figure.nullable(),
  /** `gap − previous gap`; `null` on the first iteration or when either gap is `null`. */
  gapDelta: Figure.nullable(),
  /** Mean absolute per-artefact difference. */
  mae: Figure.nullable(),
  spearman: Figure.nullable(),
  /** Quadratic-weighted Cohen's kappa on the 1–5 rating scale. */
  qwk: Figure.nullable(),
  /** Share of artefacts whose judge weaknesses the cheap signals flagged. */
  coverage: z.number().min(0).max(1).nullable(),
  /** Active patterns in the scoring set. */
  patternCount: z.number().int().nonnegative(),
  /** Provisional patterns in the scoring set. */
  provisionalPatterns: z.number().int().nonnegative(),
  /** Lifecycle decisions made from this iteration's results. */
  patternsCommitted: z.number().int().nonnegative(),
  patternsRejected: z.number().int().nonnegative(),
  /** Judge evaluations that failed (excluded from every figure above). */
  failedEvaluations: z.number().int().nonnegative(),
  judgeFailureRate: z.number().min(0).max(1).nullable(),
  /** False when the judge failed on more than `unreliableFailureRate` of the artefacts. */
  judgeReliable: z.boolean(),
  /** The pattern set changed since the previous iteration and things got worse. */
  regressionDetected: z.boolean(),
});
export type IterationMetrics = z.infer<typeof IterationMetricsSchema>;
