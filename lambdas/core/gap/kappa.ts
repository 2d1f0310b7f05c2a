import { clamp } from '../shared/stats.js';

/** The rating scale both modes are reduced to for kappa: the integers 1–5. */
export const RATING_SCALE = [1, 2, 3, 4, 5] as const;

/**
 * A 1–5 gestalt rounded to the rating scale (halves round up: 3.5 → 4), clamped to 1…5.
 *
 * @example
 * toRating(3.5); // 4
 * toRating(0.2); // 1
 */
export function toRating(score: number): number {
  return clamp(Math.round(score), 1, RATING_SCALE.length);
}

/**
 * Quadratic-weighted Cohen's kappa between the two modes, scores rounded to the 1–5 scale:
 * `1 − Σ w·O / Σ w·E`, `w = (i − j)² / 16`, `O` the observed rating pairs, `E` the pairs
 * expected by chance from each mode's marginals.
 *
 * Degenerate cases, explicitly:
 * - fewer than two artefacts → `null` (one artefact is no sample of agreement);
 * - both modes put every artefact in the same single rating → `null`: chance agreement is
 *   total and kappa is 0/0. It is not reported as 1, because a constant rater says nothing
 *   about agreement (component health flags `all_same_score` separately);
 * - one mode constant, the other not → 0 (defined: no agreement beyond chance).
 *
 * @example
 * quadraticWeightedKappa([1, 2, 3, 4, 5], [1, 2, 3, 4, 5]); // 1
 * quadraticWeightedKappa([4, 4], [4, 4]); // null
 */
export function quadraticWeightedKappa(
  expensive: readonly number[],
  cheap: readonly number[],
): number | null {
  if (expensive.length !== cheap.length) throw new RangeError('kappa needs paired scores');
  const count = expensive.length;
  if (count < 2) return null;

  const size = RATING_SCALE.length;
  const observed = Array.from({ length: size }, () => new Array<number>(size).fill(0));
  const rows = new Array<number>(size).fill(0);
  const columns = new Array<number>(size).fill(0);
  expensive.forEach((score, index) => {
    const row = toRating(score) - 1;
    const column = toRating(cheap[index] as number) - 1;
    (observed[row] as number[])[column] = ((observed[row] as number[])[column] as number) + 1;
    rows[row] = (rows[row] as number) + 1;
    columns[column] = (columns[column] as number) + 1;
  });

  let weightedObserved = 0;
  let weightedExpected = 0;
  for (let row = 0; row < size; row += 1)
    for (let column = 0; column < size; column += 1) {
      const weight = (row - column) ** 2 / (size - 1) ** 2;
      weightedObserved += weight * ((observed[row] as number[])[column] as number);
      weightedExpected += (weight * (rows[row] as number) * (columns[column] as number)) / count;
    }

  if (weightedExpected === 0) return null;
  return 1 - weightedObserved / weightedExpected;
}

/**
 * Two yes/no raters over the same items, as counts: "yes" (a defect) is the positive class,
 * the first rater the reference (`actual`: the humans, or the judge), the second the one
 * measured (`predicted`: the cheap mode). tp = both say yes, fp = only the second does.
 */
export interface Confusion {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

/**
 * Counts the pairs of (reference says yes, measured says yes).
 *
 * @example
 * confusionOf([{ actual: true, predicted: true }, { actual: false, predicted: true }]);
 * // { tp: 1, fp: 1, fn: 0, tn: 0 }
 */
export function confusionOf(
  pairs: Iterable<{ readonly actual: boolean; readonly predicted: boolean }>,
): Confusion {
  const counts: Confusion = { tp: 0, fp: 0, fn: 0, tn: 0 };
  for (const { actual, predicted } of pairs) {
    if (actual) counts[predicted ? 'tp' : 'fn'] += 1;
    else counts[predicted ? 'fp' : 'tn'] += 1;
  }
  return counts;
}

/**
 * Cohen's kappa of two yes/no raters, (pₒ − pₑ) / (1 − pₑ), computed on whole counts so that
 * a perfect agreement is exactly 1.
 *
 * Degenerate cases, explicitly (as for {@link quadraticWeightedKappa}):
 * - no item, or one → `null` (with one item chance agreement is total);
 * - both raters say the same one thing of every item (all yes, or all no) → `null`: chance
 *   agreement is total and kappa is 0/0. It is not reported as 1: a rater who never finds
 *   a defect says nothing about agreement;
 * - one rater constant, the other not (or both constant, each the other way) → 0 (defined:
 *   no agreement beyond chance).
 *
 * @example
 * cohenKappa({ tp: 20, fp: 5, fn: 10, tn: 15 }); // 0.4
 * cohenKappa({ tp: 0, fp: 0, fn: 0, tn: 9 }); // null
 */
export function cohenKappa({ tp, fp, fn, tn }: Confusion): number | null {
  const n = tp + fp + fn + tn;
  // n²·pₑ: the agreement the two marginals give by chance.
  const chance = (tp + fp) * (tp + fn) + (fn + tn) * (fp + tn);
  const denominator = n * n - chance;
  if (n === 0 || denominator === 0) return null;
  return (n * (tp + tn) - chance) / denominator;
}
