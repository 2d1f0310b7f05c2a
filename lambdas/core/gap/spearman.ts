import { averageRanks, pearson } from '../shared/stats.js';

/**
 * Spearman's rank correlation between the two modes' scores: Pearson's correlation of the
 * ranks, tied scores sharing their average rank. `null` when undefined: fewer than two
 * artefacts, or one mode gave every artefact the same score (no ranking to compare).
 *
 * @example
 * spearman([4.5, 3.0, 2.0], [4.0, 3.5, 1.0]); // 1
 * spearman([4, 4], [3, 5]); // null
 */
export function spearman(expensive: readonly number[], cheap: readonly number[]): number | null {
  if (expensive.length !== cheap.length) throw new RangeError('spearman needs paired scores');
  return pearson(averageRanks(expensive), averageRanks(cheap));
}
