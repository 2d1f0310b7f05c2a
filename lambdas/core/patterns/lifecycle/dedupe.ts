/**
 * Near-duplicate merge. Two live patterns (`active` or `provisional`) are near-duplicates
 * when they have the same type and the Jaccard similarity of their term sets (keywords and
 * phrases, lower-cased, whitespace collapsed) is at least `dedupeJaccardThreshold`; patterns
 * without any term are never duplicates. The better-tested pattern is kept: most tested,
 * then most accurate, then `active` before `provisional`, then the smaller id. It absorbs the
 * others' counts (tested, correct, fired; the latest firing) and becomes `active` if any of
 * them was. The absorbed patterns become `pruned`, never deleted.
 *
 * Grouping is greedy and deterministic: in keeping order, each pattern not yet absorbed
 * absorbs every later one similar to it (similarity is to the keeper, not transitive).
 */
import type { EvaluationConfig } from '../../schemas/evaluation-config.js';
import { atLeast } from '../../shared/compare.js';
import { patternAccuracy, type PatternChanges } from './provisional.js';
import type { PatternEvent } from '../../schemas/analysis/actions.js';
import { jaccard } from '../../shared/text.js';
import type { Pattern } from '../../schemas/evaluation.js';

export interface DuplicateGroup {
  keepId: string;
  mergeIds: string[];
}

const isLive = (pattern: Pattern): boolean =>
  pattern.status === 'active' || pattern.status === 'provisional';

/**
 * A pattern's term set: keywords and phrases, lower-cased, whitespace collapsed.
 *
 * @example
 * patternTerms({ ...pattern, keywords: ['Vague'], phrases: ['no  detail'] }); // Set { 'vague', 'no detail' }
 */
export function patternTerms(pattern: Pattern): Set<string> {
  return new Set(
    [...pattern.keywords, ...pattern.phrases]
      .map((term) => term.toLowerCase().replace(/\s+/g, ' ').trim())
      .filter((term) => term.length > 0),
  );
}

/**
 * Orders patterns best-tested first (the keeping order).
 *
 * @example
 * patterns.sort(byKeepingOrder)[0]; // the pattern a merge would keep
 */
export function byKeepingOrder(a: Pattern, b: Pattern): number {
  if (a.timesTested !== b.timesTested) return b.timesTested - a.timesTested;
  const accuracy = patternAccuracy(b) - patternAccuracy(a);
  if (accuracy !== 0) return accuracy;
  if (a.status !== b.status) return a.status === 'active' ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The near-duplicate groups among the live patterns (a plan; nothing is changed).
 *
 * @example
 * findNearDuplicates(patterns, 0.8); // [{ keepId: 'p_001', mergeIds: ['p_017'] }]
 */
export function findNearDuplicates(
  patterns: readonly Pattern[],
  threshold: number,
): DuplicateGroup[] {
  const candidates = patterns.filter(isLive).sort(byKeepingOrder);
  const terms = new Map(candidates.map((pattern) => [pattern.id, patternTerms(pattern)]));
  const absorbed = new Set<string>();
  const groups: DuplicateGroup[] = [];
  candidates.forEach((keeper, index) => {
    if (absorbed.has(keeper.id)) return;
    const keeperTerms = terms.get(keeper.id) as Set<string>;
    const mergeIds = candidates
      .slice(index + 1)
      .filter(
        (other) =>
          !absorbed.has(other.id) &&
          other.type === keeper.type &&
          atLeast(jaccard(keeperTerms, terms.get(other.id) as Set<string>), threshold),
      )
      .map((other) => other.id);
    if (mergeIds.length === 0) return;
    mergeIds.forEach((id) => absorbed.add(id));
    groups.push({ keepId: keeper.id, mergeIds });
  });
  return groups;
}

/**
 * Applies merge groups: the keeper absorbs the counts, the others become `pruned`.
 *
 * @example
 * applyMerges(patterns, [{ keepId: 'p_001', mergeIds: ['p_017'] }]).events;
 * // [{ type: 'merged_patterns', keptId: 'p_001', mergedIds: ['p_017'] }]
 */
export function applyMerges(
  patterns: readonly Pattern[],
  groups: readonly DuplicateGroup[],
): PatternChanges {
  const byId = new Map(patterns.map((pattern) => [pattern.id, pattern]));
  const replacements = new Map<string, Pattern>();
  const events: PatternEvent[] = [];
  for (const group of groups) {
    const keeper = byId.get(group.keepId);
    const merged = group.mergeIds
      .map((id) => byId.get(id))
      .filter((pattern): pattern is Pattern => pattern !== undefined);
    if (!keeper || merged.length === 0) continue;
    const everyone = [keeper, ...merged];
    const lastFired = everyone
      .map((pattern) => pattern.lastFiredIteration)
      .filter((iteration): iteration is number => iteration !== undefined);
    replacements.set(keeper.id, {
      ...keeper,
      status: everyone.some((pattern) => pattern.status === 'active') ? 'active' : keeper.status,
      timesTested: everyone.reduce((sum, pattern) => sum + pattern.timesTested, 0),
      timesCorrect: everyone.reduce((sum, pattern) => sum + pattern.timesCorrect, 0),
      timesFired: everyone.reduce((sum, pattern) => sum + pattern.timesFired, 0),
      lastFiredIteration: lastFired.length > 0 ? Math.max(...lastFired) : undefined,
    });
    for (const pattern of merged) replacements.set(pattern.id, { ...pattern, status: 'pruned' });
    events.push({
      type: 'merged_patterns',
      keptId: keeper.id,
      mergedIds: merged.map((pattern) => pattern.id),
    });
  }
  return {
    patterns: patterns.map((pattern) => replacements.get(pattern.id) ?? pattern),
    events,
  };
}

/**
 * Finds and merges the near-duplicates among the live patterns.
 *
 * @example
 * const { patterns, events } = mergeNearDuplicates(set.patterns, config);
 */
export function mergeNearDuplicates(
  patterns: readonly Pattern[],
  config: Pick<EvaluationConfig, 'patterns'>,
): PatternChanges {
  return applyMerges(
    patterns,
    findNearDuplicates(patterns, config.patterns.dedupeJaccardThreshold),
  );
}
