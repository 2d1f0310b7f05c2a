/**
 * The thresholds of pattern proposal (shared/design/dual-mode-evaluation.md, "Pattern
 * Learning Loop" and "Pattern Proposal Prompt"), each configurable. Where the document gives
 * a value it is the default; the rest are ours, each with its reason. Merged into
 * `AnalysisConfigSchema` in evaluation-config.ts (`...LearningConfigSchema.shape`),
 * hence a plain object schema without cross-field refinements.
 */
import { z } from 'zod';

export const LearningConfigSchema = z.object({
  /**
   * The document's "Gap > 0.5? → learn new patterns": proposals are made only when the
   * iteration's |gap| exceeds this. By magnitude, as convergence reads the gap: a cheap
   * mode that over-scores does not track the judge either.
   */
  learningGapThreshold: z.number().nonnegative().default(0.5),
  /** `learn_from_gap`: an artefact is worth asking about when its |gap| exceeds this (0.5). */
  proposalArtefactGapThreshold: z.number().nonnegative().default(0.5),
  /** Model proposals per iteration, one artefact each, largest |gap| first (ours: 3). */
  maxProposalsPerIteration: z.number().int().nonnegative().default(3),
  /**
   * New provisional patterns per iteration from both proposers together. The document's
   * iteration log plans `"proposed_patterns": 5`; it also stays below the stability rule's
   * pattern-count change of 10.
   */
  maxNewPatternsPerIteration: z.number().int().nonnegative().default(5),
  /** The document: "Weighting: Start at 1.0, adjust based on correlation". */
  initialProvisionalWeight: z.number().min(0).max(2).default(1),
  /** Per-try timeout of a proposal call (as the judge's, 120 s). */
  proposalTimeoutSeconds: z.number().positive().default(120),
  /** Tries per proposal: one, and one retry of an unusable answer. */
  proposalMaxTries: z.number().int().positive().default(2),
  /** The answer is one small JSON object; 1024 tokens leave room for a long rationale. */
  proposalMaxTokens: z.number().int().positive().default(1024),
  /** Characters of the artefact's text shown in the prompt (its patterns are matched on it). */
  proposalArtefactChars: z.number().int().nonnegative().default(6000),
  /** Current patterns listed in the prompt (fired ones first): 471 would cost ~12k tokens. */
  proposalPatternListLimit: z.number().int().nonnegative().default(100),
  /** Miner: a judge score at or above this is "high" (the convergence bar, 4.0). */
  minerHighScore: z.number().min(1).max(5).default(4),
  /** Miner: a judge score at or below this is "low" (the scale's "weak: must be rewritten"). */
  minerLowScore: z.number().min(1).max(5).default(2),
  /** Miner: |z| of the log-odds ratio at least this (1.96: two-sided 5%). */
  minerZThreshold: z.number().nonnegative().default(1.96),
  /** Miner: artefacts of the phrase's own side (high for good, low for bad) that hold it. */
  minerMinSupport: z.number().int().positive().default(3),
  /** Miner: longest word n-gram considered. */
  minerMaxNgram: z.number().int().min(1).max(5).default(3),
  /**
   * Miner: the informative Dirichlet prior's weight, as a share of the samples (the prior
   * follows every sample's phrases, middle scores too). At 0.1 the prior counts as a tenth
   * of the artefacts: enough to keep a phrase seen in two artefacts from looking decisive,
   * little enough that a dozen artefacts outweigh it (ours; Monroe et al. scale the prior
   * to their corpus).
   */
  minerPriorScale: z.number().positive().default(0.1),
});
export type LearningConfig = z.infer<typeof LearningConfigSchema>;

/**
 * The learning configuration: the given values over the defaults, validated.
 *
 * @example
 * resolveLearningConfig({ maxProposalsPerIteration: 1 }).learningGapThreshold; // 0.5
 */
export function resolveLearningConfig(overrides: Partial<LearningConfig> = {}): LearningConfig {
  return LearningConfigSchema.parse(overrides);
}

/** Every default, for tests and callers without project settings. */
export const DEFAULT_LEARNING_CONFIG: LearningConfig = resolveLearningConfig();
