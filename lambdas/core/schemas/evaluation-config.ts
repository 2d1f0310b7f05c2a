/**
 * Dual-mode evaluation's configuration (`ralph.config.json` → `evaluation`): every rule and
 * threshold of shared/design/dual-mode-evaluation.md, each configurable, each defaulting to
 * the document's value; where the document leaves a rule open, ours, with its reason.
 *
 * One schema, in sections that follow the document's groups: `convergence` (its
 * "Convergence Proof" and "Stability Definition"), `divergence`, `regression`, `judge`
 * (the expensive mode: "LLM Rate Limits", "run 3×, use median"), `coverage` (the success
 * metric), `patterns` ("Provisional Patterns", weights, merging and pruning), `proposals`
 * ("Pattern Learning Loop", "Pattern Proposal Prompt"), `miner` (ours: the model-free
 * proposer), `recovery` ("Automatic Recovery Actions") and `history` ("Calibration History
 * Retention"). Unknown keys are dropped, as zod objects do. The flat shape stored before
 * the sections existed still reads: see evaluation-config-flat.ts.
 */
import { z } from 'zod';
import { liftFlatEvaluationConfig } from './evaluation-config-flat.js';

/** Convergence: the cheap mode alone good enough, and tracking the judge, stably. */
export const ConvergenceConfigSchema = z.strictObject({
  cheapThreshold: z.number().min(1).max(5).default(4.0),
  gapThreshold: z.number().nonnegative().default(0.5),
  stableIterations: z.number().int().positive().default(2),
  maxPatternCountChange: z.number().int().nonnegative().default(10),
  minIterations: z.number().int().nonnegative().default(2),
  /**
   * Spearman's rho between the modes at least this in every iteration of the window (ours):
   * a mean gap can close while the cheap mode ranks the artefacts nothing like the judge.
   */
  minSpearman: z.number().min(-1).max(1).default(0.6),
  /** Quadratic-weighted kappa at least this in every iteration of the window (ours). */
  minQwk: z.number().min(-1).max(1).default(0.6),
  /**
   * Fewest artefacts both modes scored for rho and kappa to count (ours: 5). Below five, no
   * ranking, not even a perfect one, tells agreement from chance at the two-sided 5% level
   * (4 artefacts: 1 ordering in 24 ranks perfectly by luck, p ≈ 0.08; 5: 1 in 120,
   * p ≈ 0.017), and one swapped pair moves rho by 0.2 or more.
   */
  minAgreementArtefacts: z.number().int().min(2).default(5),
});

/** Divergence: the gap rising, or stuck above its threshold. */
export const DivergenceConfigSchema = z.strictObject({
  risingGapIterations: z.number().int().positive().default(3),
  plateauIterations: z.number().int().positive().default(3),
  plateauRange: z.number().nonnegative().default(0.05),
  patternExplosionFactor: z.number().positive().default(1.5),
});

/** Regression: the pattern set changed and things got worse. */
export const RegressionConfigSchema = z.strictObject({
  gapIncrease: z.number().nonnegative().default(0.2),
  cheapDrop: z.number().nonnegative().default(0.3),
  /** QWK or Spearman's rho fell by more than this (both on a −1…1 scale). */
  agreementDrop: z.number().nonnegative().default(0.2),
});

/** The judge (expensive mode) and its reliability. */
export const JudgeConfigSchema = z.strictObject({
  maxTries: z.number().int().positive().default(3),
  timeoutSeconds: z.number().positive().default(120),
  unreliableFailureRate: z.number().min(0).max(1).default(0.2),
  reruns: z.number().int().positive().default(3),
  highVarianceThreshold: z.number().nonnegative().default(0.5),
  concurrency: z.number().int().positive().default(4),
});

/** Pattern coverage: does the cheap mode flag the weaknesses the judge listed? */
export const CoverageConfigSchema = z.strictObject({
  /** Content tokens a judge weakness must share with a cheap signal. */
  minSharedTokens: z.number().int().positive().default(1),
  /** Share of the judge's weaknesses that must be matched for the artefact to count. */
  minWeaknessShare: z.number().min(0).max(1).default(1),
  /** The document's success metric: pattern coverage ≥ 80% (below it: a health warning). */
  target: z.number().min(0).max(1).default(0.8),
});

/** The learned patterns' lifecycle: provisional trial, weights, merging, pruning. */
export const PatternsConfigSchema = z.strictObject({
  validateAfterTests: z.number().int().positive().default(10),
  validateMinAccuracy: z.number().min(0).max(1).default(0.7),
  rejectAfterTests: z.number().int().positive().default(5),
  rejectMaxAccuracy: z.number().min(0).max(1).default(0.3),
  /** Near-duplicate patterns: Jaccard similarity of their keyword + phrase sets. */
  dedupeJaccardThreshold: z.number().min(0).max(1).default(0.8),
  /** Weights move this share of the way to `2 × accuracy` per iteration. */
  weightLearningRate: z.number().min(0).max(1).default(0.5),
  /** A weight is recalibrated only once the pattern was tested this many times. */
  recalibrateMinTests: z.number().int().nonnegative().default(5),
  pruneUnusedIterations: z.number().int().positive().default(10),
  pruneMinWeight: z.number().min(0).max(2).default(0.1),
  /** Health: rejected ÷ (committed + rejected) in one iteration above this is flagged. */
  highRejectionRate: z.number().min(0).max(1).default(0.5),
});

/**
 * Pattern proposal (the document's "Pattern Learning Loop" and "Pattern Proposal Prompt").
 * Where the document gives a value it is the default; the rest are ours, each with its
 * reason.
 */
export const ProposalsConfigSchema = z.strictObject({
  /**
   * The document's "Gap > 0.5? → learn new patterns": proposals are made only when the
   * iteration's |gap| exceeds this. By magnitude, as convergence reads the gap: a cheap
   * mode that over-scores does not track the judge either.
   */
  gapThreshold: z.number().nonnegative().default(0.5),
  /** `learn_from_gap`: an artefact is worth asking about when its |gap| exceeds this (0.5). */
  artefactGapThreshold: z.number().nonnegative().default(0.5),
  /** Model proposals per iteration, one artefact each, largest |gap| first (ours: 3). */
  maxPerIteration: z.number().int().nonnegative().default(3),
  /**
   * New provisional patterns per iteration from both proposers together. The document's
   * iteration log plans `"proposed_patterns": 5`; it also stays below the stability rule's
   * pattern-count change of 10.
   */
  maxNewPatterns: z.number().int().nonnegative().default(5),
  /** The document: "Weighting: Start at 1.0, adjust based on correlation". */
  initialWeight: z.number().min(0).max(2).default(1),
  /** Per-try timeout of a proposal call (as the judge's, 120 s). */
  timeoutSeconds: z.number().positive().default(120),
  /** Tries per proposal: one, and one retry of an unusable answer. */
  maxTries: z.number().int().positive().default(2),
  /** The answer is one small JSON object; 1024 tokens leave room for a long rationale. */
  maxTokens: z.number().int().positive().default(1024),
  /** Characters of the artefact's text shown in the prompt (its patterns are matched on it). */
  artefactChars: z.number().int().nonnegative().default(6000),
  /** Current patterns listed in the prompt (fired ones first): 471 would cost ~12k tokens. */
  patternListLimit: z.number().int().nonnegative().default(100),
});

/** The log-odds miner (ours): the model-free proposer. */
export const MinerConfigSchema = z.strictObject({
  /** A judge score at or above this is "high" (the convergence bar, 4.0). */
  highScore: z.number().min(1).max(5).default(4),
  /** A judge score at or below this is "low" (the scale's "weak: must be rewritten"). */
  lowScore: z.number().min(1).max(5).default(2),
  /** |z| of the log-odds ratio at least this (1.96: two-sided 5%). */
  zThreshold: z.number().nonnegative().default(1.96),
  /** Artefacts of the phrase's own side (high for good, low for bad) that hold it. */
  minSupport: z.number().int().positive().default(3),
  /** Longest word n-gram considered. */
  maxNgram: z.number().int().min(1).max(5).default(3),
  /**
   * The informative Dirichlet prior's weight, as a share of the samples (the prior follows
   * every sample's phrases, middle scores too). At 0.1 the prior counts as a tenth of the
   * artefacts: enough to keep a phrase seen in two artefacts from looking decisive, little
   * enough that a dozen artefacts outweigh it (ours; Monroe et al. scale the prior to their
   * corpus).
   */
  priorScale: z.number().positive().default(0.1),
});

/** The recovery actions' settings (the document's `RECOVERY_ACTIONS`). */
export const RecoveryConfigSchema = z.strictObject({
  /** `reduce_learning_rate`: multiply the weight learning rate by this. */
  learningRateReduction: z.number().positive().max(1).default(0.5),
  /** `increase_validation_threshold`: "Require 80% accuracy to commit". */
  raisedValidationAccuracy: z.number().min(0).max(1).default(0.8),
  /** `prune_low_weight_patterns`: "Remove patterns with < 0.3 weight". */
  pruneMaxWeight: z.number().min(0).max(2).default(0.3),
});

/** Calibration history retention. */
export const HistoryConfigSchema = z.strictObject({
  /** The history keeps the first entry (the baseline) and the last `maxEntries − 1`. */
  maxEntries: z.number().int().min(2).default(50),
});

/**
 * An evaluation suite: a command that runs the project's pipeline on fixed test data and
 * writes one JSON document per input into `outputDir`. The runner runs it after a counted
 * commit; each document becomes an artefact both evaluation modes score, under the same id
 * every iteration (which is what convergence compares).
 */
export const EvaluationSuiteSchema = z.strictObject({
  command: z.string().min(1),
  /** Relative to the repository root; emptied before each run of the suite. */
  outputDir: z.string().min(1).default('.ralph-eval'),
  timeoutSeconds: z.number().int().positive().default(600),
  /** What the documents are: `user_story` has the design document's rubric and heuristics. */
  documentType: z.string().min(1).default('user_story'),
  /** More documents than this is a suite fault (the Map over artefacts is bounded). */
  maxDocuments: z.number().int().positive().max(200).default(50),
});
export type EvaluationSuite = z.infer<typeof EvaluationSuiteSchema>;

/**
 * Dual-mode evaluation of every iteration: off unless enabled, since the judge is a paid
 * model call per artefact.
 */
export const EvaluationConfigSchema = z.strictObject({
  enabled: z.boolean().default(false),
  suite: EvaluationSuiteSchema.optional(),
  /**
   * Judge the iteration's change (story, diff, gates). Unset: only when the run has no
   * suite (the change is then what is evaluated); with a suite, its documents are what
   * convergence compares, and a change scored on another rubric would blur their averages.
   */
  judgeChanges: z.boolean().optional(),
  /**
   * End the run once it converges, even with stories open (for runs whose goal is the
   * pipeline the suite measures). Otherwise a run ends when its stories pass, converged
   * or not, and says which.
   */
  stopOnConvergence: z.boolean().default(false),
  convergence: ConvergenceConfigSchema.prefault({}),
  divergence: DivergenceConfigSchema.prefault({}),
  regression: RegressionConfigSchema.prefault({}),
  judge: JudgeConfigSchema.prefault({}),
  coverage: CoverageConfigSchema.prefault({}),
  patterns: PatternsConfigSchema.prefault({}),
  proposals: ProposalsConfigSchema.prefault({}),
  miner: MinerConfigSchema.prefault({}),
  recovery: RecoveryConfigSchema.prefault({}),
  history: HistoryConfigSchema.prefault({}),
});
export type EvaluationConfig = z.infer<typeof EvaluationConfigSchema>;
export type EvaluationConfigInput = z.input<typeof EvaluationConfigSchema>;

/**
 * The `evaluation` of a run's config as it is read (a config file, a stored run): the
 * sectioned shape, or the flat one of older runs lifted into its sections first.
 */
export const StoredEvaluationConfigSchema = z.preprocess(
  (value: EvaluationConfigInput) => liftFlatEvaluationConfig(value),
  EvaluationConfigSchema,
);

/**
 * The full evaluation configuration: the given values over the defaults, validated (either
 * shape, see {@link StoredEvaluationConfigSchema}).
 *
 * @example
 * const config = resolveEvaluationConfig({ convergence: { cheapThreshold: 3.5 } });
 * config.convergence.gapThreshold; // 0.5
 */
export function resolveEvaluationConfig(input: EvaluationConfigInput = {}): EvaluationConfig {
  return StoredEvaluationConfigSchema.parse(input);
}

/** Every default, for tests and callers that have no project settings. */
export const DEFAULT_EVALUATION_CONFIG: EvaluationConfig = resolveEvaluationConfig();
