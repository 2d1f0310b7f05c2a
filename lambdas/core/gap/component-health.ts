/**
 * Component health per iteration, with the document's flags. A component is healthy when
 * it raised no flag other than a warning (`WARNING_FLAGS`).
 *
 * - cheap evaluator: `no_results`; `all_same_score` (two or more results, one score);
 *   `scores_out_of_range` (a gestalt outside 1–5); `zero_patterns_matched` (no result
 *   matched any pattern: the document's check on `reasons` predates `patternsMatched`);
 *   `low_coverage` (warning: coverage below `coverage.target`).
 * - expensive evaluator: `no_results`; `judge_unreliable`; `scores_out_of_range`;
 *   `high_variance` (warning: re-runs disagree).
 * - gap calculator: `no_paired_artefacts` (no artefact scored by both modes);
 *   `unpaired_artefacts` (warning: a cheap or judge result without its counterpart).
 * - pattern learner: `high_rejection_rate` (warning: rejected ÷ (committed + rejected) above
 *   `patterns.highRejectionRate`).
 */
import type { EvaluationConfig } from '../schemas/evaluation-config.js';
import { exceeds, fallsBelow, nearlyEqual } from '../shared/compare.js';
import type { JudgeReliability } from './judge-reliability.js';
import type { PairedResults } from './pairing.js';
import type { PatternEvent } from '../schemas/analysis/actions.js';
import {
  WARNING_FLAGS,
  type ComponentHealth,
  type ComponentHealthStatus,
  type HealthFlag,
} from '../schemas/analysis/health.js';
import { sampleVariance } from '../shared/stats.js';
import type { CheapModeResult, ExpensiveModeResult } from '../schemas/evaluation.js';

type Details = ComponentHealthStatus['details'];

function status(flags: HealthFlag[], details: Details): ComponentHealthStatus {
  return { healthy: flags.every((flag) => WARNING_FLAGS.has(flag)), flags, details };
}

const outOfRange = (score: number): boolean =>
  !Number.isFinite(score) || fallsBelow(score, 1) || exceeds(score, 5);

/**
 * Health of the cheap evaluator.
 *
 * @example
 * checkCheapEvaluator(cheap, 0.85, config); // { healthy: true, flags: [], details: { ... } }
 */
export function checkCheapEvaluator(
  results: readonly CheapModeResult[],
  coverage: number | null,
  config: Pick<EvaluationConfig, 'coverage'>,
): ComponentHealthStatus {
  const scores = results.map((result) => result.gestalt);
  const flags: HealthFlag[] = [];
  if (results.length === 0) flags.push('no_results');
  if (scores.length > 1 && scores.every((score) => nearlyEqual(score, scores[0] as number)))
    flags.push('all_same_score');
  if (scores.some(outOfRange)) flags.push('scores_out_of_range');
  if (results.length > 0 && results.every((result) => result.patternsMatched.length === 0))
    flags.push('zero_patterns_matched');
  if (coverage !== null && fallsBelow(coverage, config.coverage.target)) flags.push('low_coverage');
  return status(flags, {
    results: results.length,
    scoreMin: scores.length > 0 ? Math.min(...scores) : null,
    scoreMax: scores.length > 0 ? Math.max(...scores) : null,
    variance: sampleVariance(scores),
    coverage,
  });
}

/**
 * Health of the expensive evaluator (the judge).
 *
 * @example
 * checkExpensiveEvaluator(expensive, reliability).flags; // ['judge_unreliable']
 */
export function checkExpensiveEvaluator(
  results: readonly ExpensiveModeResult[],
  reliability: JudgeReliability,
): ComponentHealthStatus {
  const flags: HealthFlag[] = [];
  if (results.length === 0) flags.push('no_results');
  else if (reliability.unreliable) flags.push('judge_unreliable');
  if (results.some((result) => result.status === 'ok' && outOfRange(result.gestalt)))
    flags.push('scores_out_of_range');
  if (reliability.highVariance.length > 0) flags.push('high_variance');
  return status(flags, {
    results: results.length,
    failed: reliability.failed,
    failureRate: reliability.failureRate,
    highVarianceArtefacts: reliability.highVariance.map((entry) => entry.artefactId),
  });
}

/**
 * Health of the gap calculation.
 *
 * @example
 * checkGapCalculator(pairResults(cheap, expensive)).healthy; // true
 */
export function checkGapCalculator(paired: PairedResults): ComponentHealthStatus {
  const flags: HealthFlag[] = [];
  if (paired.pairs.length === 0) flags.push('no_paired_artefacts');
  if (paired.missingCheap.length > 0 || paired.missingJudge.length > 0)
    flags.push('unpaired_artefacts');
  return status(flags, {
    paired: paired.pairs.length,
    judgeFailed: paired.judgeFailed.map((failure) => failure.artefactId),
    missingCheap: paired.missingCheap,
    missingJudge: paired.missingJudge,
  });
}

/**
 * Health of the pattern learner, from this iteration's lifecycle events.
 *
 * @example
 * checkPatternLearner(events, config); // { healthy: true, flags: ['high_rejection_rate'], ... }
 */
export function checkPatternLearner(
  events: readonly PatternEvent[],
  config: Pick<EvaluationConfig, 'patterns'>,
): ComponentHealthStatus {
  const committed = events.filter((event) => event.type === 'committed_pattern').length;
  const rejected = events.filter((event) => event.type === 'rejected_pattern').length;
  const decided = committed + rejected;
  const rejectionRate = decided === 0 ? null : rejected / decided;
  const flags: HealthFlag[] = [];
  if (rejectionRate !== null && exceeds(rejectionRate, config.patterns.highRejectionRate))
    flags.push('high_rejection_rate');
  return status(flags, {
    committed,
    rejected,
    rejectionRate,
    merged: events.filter((event) => event.type === 'merged_patterns').length,
    pruned: events.filter((event) => event.type === 'pruned_pattern').length,
  });
}

export interface HealthInput {
  cheap: readonly CheapModeResult[];
  expensive: readonly ExpensiveModeResult[];
  paired: PairedResults;
  reliability: JudgeReliability;
  coverage: number | null;
  patternEvents: readonly PatternEvent[];
}

/**
 * Every component's health for one iteration.
 *
 * @example
 * assessComponentHealth({ cheap, expensive, paired, reliability, coverage, patternEvents }, config);
 * // { cheap_evaluator: { healthy: true, flags: [] , ... }, expensive_evaluator: ..., ... }
 */
export function assessComponentHealth(
  input: HealthInput,
  config: Pick<EvaluationConfig, 'coverage' | 'patterns'>,
): ComponentHealth {
  return {
    cheap_evaluator: checkCheapEvaluator(input.cheap, input.coverage, config),
    expensive_evaluator: checkExpensiveEvaluator(input.expensive, input.reliability),
    gap_calculator: checkGapCalculator(input.paired),
    pattern_learner: checkPatternLearner(input.patternEvents, config),
  };
}
