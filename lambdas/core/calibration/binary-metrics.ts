/**
 * Agreement of a yes/no detector with human labels, beside the confusion counts and Cohen's
 * kappa (`gap/kappa.ts`, shared with the judge-versus-cheap comparison): precision and recall,
 * and the AUC of a score. A figure that cannot be computed (no
 * story, one class only) is `null`, never a number that looks like a measurement.
 */

import type { Confusion } from '../gap/kappa.js';

/**
 * Of the stories the detector flags, the share the humans flag too; `null` when it flags none.
 *
 * @example
 * precision({ tp: 3, fp: 1, fn: 0, tn: 0 }); // 0.75
 */
export function precision({ tp, fp }: Confusion): number | null {
  return tp + fp === 0 ? null : tp / (tp + fp);
}

/**
 * Of the stories the humans flag, the share the detector flags too; `null` when they flag none.
 *
 * @example
 * recall({ tp: 3, fp: 0, fn: 1, tn: 0 }); // 0.75
 */
export function recall({ tp, fn }: Confusion): number | null {
  return tp + fn === 0 ? null : tp / (tp + fn);
}

/**
 * The area under the ROC curve of `score` as a detector of `positive`, where a LOWER score
 * means more likely positive (the gestalt: a defective story should score lower): the
 * chance that a positive scores below a negative, ties counted half (Mann–Whitney U / n₊n₋).
 * `null` without a positive or without a negative. O(n log n).
 *
 * @example
 * lowerScoreAuc([{ score: 2, positive: true }, { score: 4, positive: false }]); // 1
 * lowerScoreAuc([{ score: 3, positive: true }, { score: 3, positive: false }]); // 0.5
 */
export function lowerScoreAuc(
  items: readonly { readonly score: number; readonly positive: boolean }[],
): number | null {
  const positives = items.filter((item) => item.positive).length;
  const negatives = items.length - positives;
  if (positives === 0 || negatives === 0) return null;
  const sorted = [...items].sort((a, b) => a.score - b.score);
  // For each positive: the negatives scoring above it, plus half of those tied with it.
  let wins = 0;
  let negativesBelow = 0;
  let start = 0;
  while (start < sorted.length) {
    const score = sorted[start]?.score;
    let tiedPositives = 0;
    let tiedNegatives = 0;
    let end = start;
    for (; end < sorted.length && sorted[end]?.score === score; end += 1)
      if (sorted[end]?.positive) tiedPositives += 1;
      else tiedNegatives += 1;
    const negativesAbove = negatives - negativesBelow - tiedNegatives;
    wins += tiedPositives * (negativesAbove + tiedNegatives / 2);
    negativesBelow += tiedNegatives;
    start = end;
  }
  return wins / (positives * negatives);
}
