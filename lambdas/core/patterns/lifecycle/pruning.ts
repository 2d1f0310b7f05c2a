/**
 * Pruning (the `patterns` section): a live pattern (`active` or `provisional`) not fired
 * for `pruneUnusedIterations` iterations (counted from its last firing, or from the
 * iteration it was learned in if it never fired), or weighing less than `pruneMinWeight`,
 * becomes `pruned`. Pruned patterns are kept in the set, never deleted; rejected ones stay
 * rejected.
 */
import type { EvaluationConfig } from '../../schemas/evaluation-config.js';
import { fallsBelow } from '../../shared/compare.js';
import type { PatternChanges } from './provisional.js';
import type { PatternEvent } from '../../schemas/analysis/actions.js';
import type { Pattern } from '../../schemas/evaluation.js';

export type PruneReason = Extract<PatternEvent, { type: 'pruned_pattern' }>['reason'];

export type PruneConfig = Pick<EvaluationConfig, 'patterns'>;

const isLive = (pattern: Pattern): boolean =>
  pattern.status === 'active' || pattern.status === 'provisional';

/**
 * Why a pattern should be pruned at `iteration`, or `null` to keep it.
 *
 * @example
 * pruneReason({ ...pattern, lastFiredIteration: 5 }, 15, config); // 'unused'
 */
export function pruneReason(
  pattern: Pattern,
  iteration: number,
  config: PruneConfig,
): PruneReason | null {
  if (!isLive(pattern)) return null;
  const lastUsed = pattern.lastFiredIteration ?? pattern.learnedIteration;
  if (iteration - lastUsed >= config.patterns.pruneUnusedIterations) return 'unused';
  if (fallsBelow(pattern.weight, config.patterns.pruneMinWeight)) return 'low_weight';
  return null;
}

/**
 * Marks the given live patterns `pruned` (how recovery `prune_patterns` is carried out).
 *
 * @example
 * markPruned(patterns, ['p_003'], 'never_fired').events;
 * // [{ type: 'pruned_pattern', patternId: 'p_003', reason: 'never_fired' }]
 */
export function markPruned(
  patterns: readonly Pattern[],
  ids: readonly string[],
  reason: PruneReason,
): PatternChanges {
  const wanted = new Set(ids);
  return pruneEach(patterns, (pattern) =>
    wanted.has(pattern.id) && isLive(pattern) ? reason : null,
  );
}

/**
 * Prunes every unused or near-weightless live pattern.
 *
 * @example
 * prunePatterns(patterns, 15, config).events;
 * // [{ type: 'pruned_pattern', patternId: 'p_003', reason: 'unused' }]
 */
export function prunePatterns(
  patterns: readonly Pattern[],
  iteration: number,
  config: PruneConfig,
): PatternChanges {
  return pruneEach(patterns, (pattern) => pruneReason(pattern, iteration, config));
}

/** Each pattern `reasonOf` gives a reason for marked `pruned`, with one event each. */
function pruneEach(
  patterns: readonly Pattern[],
  reasonOf: (pattern: Pattern) => PruneReason | null,
): PatternChanges {
  const events: PatternEvent[] = [];
  const updated = patterns.map((pattern): Pattern => {
    const reason = reasonOf(pattern);
    if (reason === null) return pattern;
    events.push({ type: 'pruned_pattern', patternId: pattern.id, reason });
    return { ...pattern, status: 'pruned' };
  });
  return { patterns: updated, events };
}
