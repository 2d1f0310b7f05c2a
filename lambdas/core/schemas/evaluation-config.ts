/**
 * The analysis's thresholds: every one of `EvaluationConfig` (the design document's values)
 * plus the few rules the document leaves open, each with a documented default.
 */
import { z } from 'zod';
import { LearningConfigSchema, type LearningConfig } from './learning-config.js';
import { EvaluationConfigSchema } from './evaluation.js';

export const AnalysisConfigSchema = EvaluationConfigSchema.extend({
  /** Regression: QWK or Spearman's rho fell by more than this (both on a −1…1 scale). */
  regressionAgreementDrop: z.number().nonnegative().default(0.2),
  /** Near-duplicate patterns: Jaccard similarity of their keyword + phrase sets. */
  dedupeJaccardThreshold: z.number().min(0).max(1).default(0.8),
  /** Coverage: content tokens a judge weakness must share with a cheap signal. */
  coverageMinSharedTokens: z.number().int().positive().default(1),
  /** Coverage: share of the judge's weaknesses that must be matched for the artefact to count. */
  coverageMinWeaknessShare: z.number().min(0).max(1).default(1),
  /** The document's success metric: pattern coverage ≥ 80% (below it: a health warning). */
  coverageTarget: z.number().min(0).max(1).default(0.8),
  /** Health: rejected ÷ (committed + rejected) in one iteration above this is flagged. */
  highRejectionRate: z.number().min(0).max(1).default(0.5),
  /** Weights move this share of the way to `2 × accuracy` per iteration. */
  weightLearningRate: z.number().min(0).max(1).default(0.5),
  /** A weight is recalibrated only once the pattern was tested this many times. */
  recalibrateMinTests: z.number().int().nonnegative().default(5),
  /** Recovery `reduce_learning_rate`: multiply the learning rate by this. */
  learningRateReduction: z.number().positive().max(1).default(0.5),
  /** Recovery `increase_validation_threshold`: "Require 80% accuracy to commit". */
  raisedValidationAccuracy: z.number().min(0).max(1).default(0.8),
  /** Recovery `prune_low_weight_patterns`: "Remove patterns with < 0.3 weight". */
  recoveryPruneMaxWeight: z.number().min(0).max(2).default(0.3),
}).extend(LearningConfigSchema.shape);
export type AnalysisConfig = z.infer<typeof AnalysisConfigSchema>;

/** What pattern proposal reads: its own options, and the analysis's near-duplicate rule. */
export type ProposalConfig = LearningConfig & Pick<AnalysisConfig, 'dedupeJaccardThreshold'>;

/**
 * The full analysis configuration: the given values over the defaults, validated.
 *
 * @example
 * const config = resolveAnalysisConfig({ cheapThreshold: 3.5 });
 * config.gapThreshold; // 0.5
 */
export function resolveAnalysisConfig(overrides: Partial<AnalysisConfig> = {}): AnalysisConfig {
  return AnalysisConfigSchema.parse(overrides);
}

/** Every default, for tests and callers that have no project settings. */
export const DEFAULT_ANALYSIS_CONFIG: AnalysisConfig = resolveAnalysisConfig();
