/** The verdicts an iteration's analysis reaches: regression, divergence, convergence. */
import { z } from 'zod';

const IsoDate = z.iso.datetime({ offset: true });
const Version = z.number().int().positive();

export const JudgeReliabilitySchema = z.object({
  total: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  /** The artefacts whose evaluation failed, sorted. */
  failedArtefactIds: z.array(z.string()),
  /** `failed ÷ total`; `null` when nothing was evaluated. */
  failureRate: z.number().min(0).max(1).nullable(),
  /** Failure rate above `unreliableFailureRate`, or no evaluation at all. */
  unreliable: z.boolean(),
  /** Artefacts whose re-run scores vary by more than `highVarianceThreshold` (flag only). */
  highVariance: z.array(
    z.object({
      artefactId: z.string(),
      samples: z.array(z.number()),
      /** Sample variance of the re-run scores. */
      variance: z.number(),
    }),
  ),
});
export type JudgeReliability = z.infer<typeof JudgeReliabilitySchema>;
export type HighVariance = JudgeReliability['highVariance'][number];

export const RegressionTriggerSchema = z.object({
  type: z.enum(['gap_increased', 'cheap_score_dropped', 'agreement_dropped']),
  /** `gap` is compared by magnitude (`|gap|`). */
  metric: z.enum(['gap', 'cheapAvg', 'qwk', 'spearman']),
  previous: z.number(),
  current: z.number(),
  delta: z.number(),
  threshold: z.number(),
});
export type RegressionTrigger = z.infer<typeof RegressionTriggerSchema>;

export const RegressionCheckSchema = z.object({
  regression: z.boolean(),
  /** Why nothing was compared, when nothing was. */
  skipped: z.enum(['first_iteration', 'pattern_set_unchanged']).nullable(),
  patternSetChanged: z.boolean(),
  /** Cheap drop alone is assessed when either iteration's judge was unreliable. */
  judgeComparable: z.boolean(),
  previousVersion: Version.nullable(),
  currentVersion: Version,
  triggers: z.array(RegressionTriggerSchema),
  verdict: z.enum(['keep', 'rollback']),
  /** The pattern set version to return to (the previous iteration's) on `rollback`. */
  rollbackToVersion: Version.nullable(),
});
export type RegressionCheck = z.infer<typeof RegressionCheckSchema>;

export const DIVERGENCE_DIAGNOSES = [
  'cheap_mode_degraded',
  'expensive_mode_shifted',
  'pattern_explosion',
  'unknown',
] as const;
export type DivergenceDiagnosis = (typeof DIVERGENCE_DIAGNOSES)[number];

export const DivergenceCheckSchema = z.object({
  diverging: z.boolean(),
  reason: z.enum(['gap_increasing', 'gap_plateau']).nullable(),
  /** Too few usable iterations for either rule. */
  insufficientData: z.boolean(),
  /** Why the gap rises (only for `gap_increasing`); see `detectDivergence`. */
  diagnosis: z.enum(DIVERGENCE_DIAGNOSES).nullable(),
  /** Active patterns grew more than `patternExplosionFactor` since the previous iteration. */
  patternExplosion: z.boolean(),
  /** The iterations and gap magnitudes the rules looked at (most recent last). */
  iterations: z.array(z.number().int().nonnegative()),
  gaps: z.array(z.number()),
  /** `gap_increasing`: the version scoring at the start of the rise (last known good). */
  lastKnownGoodVersion: Version.nullable(),
  /** The version of the usable iteration before the latest. */
  previousVersion: Version.nullable(),
});
export type DivergenceCheck = z.infer<typeof DivergenceCheckSchema>;

export const ConvergenceChecksSchema = z.object({
  minIterations: z.boolean(),
  consecutiveIterations: z.boolean(),
  sameArtefacts: z.boolean(),
  cheapThreshold: z.boolean(),
  gapThreshold: z.boolean(),
  /** Optional: checks stored before agreement was required have neither. */
  minSpearman: z.boolean().optional(),
  minQwk: z.boolean().optional(),
  judgeReliable: z.boolean(),
  patternsStable: z.boolean(),
  noDivergence: z.boolean(),
  noRegressions: z.boolean(),
});
export type ConvergenceChecks = z.infer<typeof ConvergenceChecksSchema>;
export type ConvergenceCheckName = keyof ConvergenceChecks;

/** One check's rule and why it held or failed, with the number it was judged on. */
export const ConvergenceReasonSchema = z.object({
  /** The rule with its threshold: `ρ ≥ 0.6`. */
  rule: z.string(),
  /** `ρ ≥ 0.6 (0.81)`, `ρ 0.30 < 0.6`, `too few artefacts to measure agreement: 3 < 5`. */
  reason: z.string(),
});
export type ConvergenceReason = z.infer<typeof ConvergenceReasonSchema>;

/** A reason per check; empty in checks stored before reasons were kept. */
export const ConvergenceReasonsSchema = z
  .partialRecord(ConvergenceChecksSchema.keyof(), ConvergenceReasonSchema)
  .default({});
export type ConvergenceReasons = z.infer<typeof ConvergenceReasonsSchema>;

/** The numbers behind the checks (the document's `proof`, extended). */
export const ConvergenceEvidenceSchema = z.object({
  iterationsChecked: z.array(z.number().int().nonnegative()),
  artefactIds: z.array(z.array(z.string())),
  cheapScores: z.array(z.number().nullable()),
  expensiveScores: z.array(z.number().nullable()),
  gaps: z.array(z.number().nullable()),
  patternCounts: z.array(z.number().int().nonnegative()),
  patternSetVersions: z.array(Version),
  agreement: z.array(
    z.object({
      iteration: z.number().int().nonnegative(),
      mae: z.number().nullable(),
      spearman: z.number().nullable(),
      qwk: z.number().nullable(),
      coverage: z.number().nullable(),
    }),
  ),
  thresholds: z.object({
    cheapThreshold: z.number(),
    gapThreshold: z.number(),
    stableIterations: z.number().int(),
    maxPatternCountChange: z.number().int(),
    minIterations: z.number().int(),
    /** Optional: evidence stored before agreement was required has none of these. */
    minSpearman: z.number().optional(),
    minQwk: z.number().optional(),
    minAgreementArtefacts: z.number().int().optional(),
  }),
});
export type ConvergenceEvidence = z.infer<typeof ConvergenceEvidenceSchema>;

/** Issued only when every check held: what held, with the numbers. */
export const ConvergenceProofSchema = z.object({
  iteration: z.number().int().nonnegative(),
  timestamp: IsoDate,
  patternSetVersion: Version,
  checks: ConvergenceChecksSchema,
  reasons: ConvergenceReasonsSchema,
  evidence: ConvergenceEvidenceSchema,
});
export type ConvergenceProof = z.infer<typeof ConvergenceProofSchema>;

/** `runs/{runId}/convergence-proof.json`: the proof, with the run and project it is about. */
export const StoredConvergenceProofSchema = ConvergenceProofSchema.extend({
  runId: z.string().min(1),
  projectId: z.string().min(1),
});

export const ConvergenceCheckSchema = z.object({
  converged: z.boolean(),
  /** The checks that failed (`insufficient_iterations` before there is a window). */
  failed: z.array(z.union([ConvergenceChecksSchema.keyof(), z.literal('insufficient_iterations')])),
  checks: ConvergenceChecksSchema.nullable(),
  reasons: ConvergenceReasonsSchema,
  evidence: ConvergenceEvidenceSchema.nullable(),
  proof: ConvergenceProofSchema.nullable(),
});
export type ConvergenceCheck = z.infer<typeof ConvergenceCheckSchema>;
