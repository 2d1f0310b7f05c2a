/**
 * Provisional patterns prove themselves before they score (the `patterns` section's rules):
 * validated (status `active`) once tested `validateAfterTests` times with accuracy ≥
 * `validateMinAccuracy`; rejected once tested `rejectAfterTests` times with accuracy <
 * `rejectMaxAccuracy`. The commit rule is checked first, as in the document. Other statuses
 * are never changed here.
 */
import type { EvaluationConfig } from '../../schemas/evaluation-config.js';
import { atLeast, fallsBelow } from '../../shared/compare.js';
import type { PatternEvent } from '../../schemas/analysis/actions.js';
import type { Pattern } from '../../schemas/evaluation.js';

export type LifecycleConfig = Pick<EvaluationConfig, 'patterns'>;

export type LifecycleDecision = 'validate' | 'reject' | 'keep';

export interface PatternChanges {
  patterns: Pattern[];
  events: PatternEvent[];
}

/**
 * `timesCorrect ÷ timesTested`, 0 before the first test.
 *
 * @example
 * patternAccuracy({ ...pattern, timesTested: 10, timesCorrect: 7 }); // 0.7
 */
export function patternAccuracy(pattern: Pick<Pattern, 'timesTested' | 'timesCorrect'>): number {
  return pattern.timesTested === 0 ? 0 : pattern.timesCorrect / pattern.timesTested;
}

/**
 * What the lifecycle does with one pattern (`keep` for anything not provisional).
 *
 * @example
 * decideProvisional({ ...pattern, status: 'provisional', timesTested: 10, timesCorrect: 7 }, config);
 * // 'validate'
 */
export function decideProvisional(pattern: Pattern, config: LifecycleConfig): LifecycleDecision {
  if (pattern.status !== 'provisional') return 'keep';
  const accuracy = patternAccuracy(pattern);
  const rules = config.patterns;
  if (
    pattern.timesTested >= rules.validateAfterTests &&
    atLeast(accuracy, rules.validateMinAccuracy)
  )
    return 'validate';
  if (
    pattern.timesTested >= rules.rejectAfterTests &&
    fallsBelow(accuracy, rules.rejectMaxAccuracy)
  )
    return 'reject';
  return 'keep';
}

/**
 * Validates and rejects the provisional patterns that have proved themselves either way.
 *
 * @example
 * const { patterns, events } = applyPatternLifecycle(set.patterns, config);
 * events; // [{ type: 'committed_pattern', patternId: 'p_482', accuracy: 0.8 }]
 */
export function applyPatternLifecycle(
  patterns: readonly Pattern[],
  config: LifecycleConfig,
): PatternChanges {
  const events: PatternEvent[] = [];
  const updated = patterns.map((pattern): Pattern => {
    const decision = decideProvisional(pattern, config);
    if (decision === 'keep') return pattern;
    const accuracy = patternAccuracy(pattern);
    if (decision === 'validate') {
      events.push({ type: 'committed_pattern', patternId: pattern.id, accuracy });
      return { ...pattern, status: 'active' };
    }
    events.push({ type: 'rejected_pattern', patternId: pattern.id, accuracy });
    return { ...pattern, status: 'rejected' };
  });
  return { patterns: updated, events };
}
