/**
 * Weight recalibration from agreement with the judge (the `patterns` section): an active
 * pattern tested at least `recalibrateMinTests` times moves `weightLearningRate` of the way
 * from its weight to `2 × accuracy` (accuracy 0.5 → weight 1, the neutral default; 1 → 2;
 * 0 → 0), bounded to 0…2 and rounded to 4 decimals. Provisional patterns keep their weight until validated.
 */
import type { EvaluationConfig } from '../../schemas/evaluation-config.js';
import { nearlyEqual } from '../../shared/compare.js';
import { patternAccuracy, type PatternChanges } from './provisional.js';
import type { PatternEvent } from '../../schemas/analysis/actions.js';
import { clamp, roundTo } from '../../shared/stats.js';
import type { Pattern } from '../../schemas/evaluation.js';

export type WeightConfig = Pick<EvaluationConfig, 'patterns'>;

/** Weights are bounded as `PatternSchema` requires. */
export const MIN_WEIGHT = 0;
export const MAX_WEIGHT = 2;

/**
 * One pattern's next weight.
 *
 * @example
 * recalibratedWeight(1, 0.9, 0.5); // 1.4
 */
export function recalibratedWeight(weight: number, accuracy: number, learningRate: number): number {
  const target = MAX_WEIGHT * accuracy;
  return roundTo(clamp(weight + learningRate * (target - weight), MIN_WEIGHT, MAX_WEIGHT), 4);
}

/**
 * Every eligible pattern's weight recalibrated, with one event per weight that moved.
 *
 * @example
 * recalibrateWeights(patterns, config).events;
 * // [{ type: 'reweighted_pattern', patternId: 'p_001', from: 1, to: 1.4 }]
 */
export function recalibrateWeights(
  patterns: readonly Pattern[],
  config: WeightConfig,
): PatternChanges {
  const events: PatternEvent[] = [];
  const updated = patterns.map((pattern) => {
    if (pattern.status !== 'active' || pattern.timesTested < config.patterns.recalibrateMinTests)
      return pattern;
    const weight = recalibratedWeight(
      pattern.weight,
      patternAccuracy(pattern),
      config.patterns.weightLearningRate,
    );
    if (nearlyEqual(weight, pattern.weight)) return pattern;
    events.push({
      type: 'reweighted_pattern',
      patternId: pattern.id,
      from: pattern.weight,
      to: weight,
    });
    return { ...pattern, weight };
  });
  return { patterns: updated, events };
}
