/**
 * Small descriptive statistics over plain number lists: the one home of `median`, `spread`
 * and `roundTo` (the judge's re-runs, the gap analysis and pattern weights all use these).
 */

/**
 * The arithmetic mean, or `null` for an empty list.
 *
 * @example
 * mean([3, 4, 5]); // 4
 */
export function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

/**
 * The median (the mean of the two middle values for an even count), or `null` when empty.
 *
 * @example
 * median([4, 2, 5]); // 4
 */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] as number;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] as number) + upper) / 2;
}

/**
 * The sample variance (n − 1 in the denominator, as Python's `statistics.variance`); 0 for
 * fewer than two values, where no spread can be measured.
 *
 * @example
 * sampleVariance([3, 4, 5]); // 1
 */
export function sampleVariance(values: readonly number[]): number {
  const centre = mean(values);
  if (centre === null || values.length < 2) return 0;
  const squares = values.reduce((sum, value) => sum + (value - centre) ** 2, 0);
  return squares / (values.length - 1);
}

/**
 * 1-based ranks in input order; tied values share the average of the ranks they span.
 *
 * @example
 * averageRanks([10, 20, 20, 30]); // [1, 2.5, 2.5, 4]
 */
export function averageRanks(values: readonly number[]): number[] {
  const order = values.map((value, index) => ({ value, index })).sort((a, b) => a.value - b.value);
  const ranks = new Array<number>(values.length).fill(0);
  let start = 0;
  while (start < order.length) {
    let end = start;
    while (end + 1 < order.length && order[end + 1]?.value === order[start]?.value) end += 1;
    const rank = (start + end) / 2 + 1;
    for (let position = start; position <= end; position += 1)
      ranks[(order[position] as { index: number }).index] = rank;
    start = end + 1;
  }
  return ranks;
}

/**
 * Pearson's correlation, or `null` when it is undefined: fewer than two pairs, or no
 * variance in either list. Clamped to −1…1 against rounding noise.
 *
 * @example
 * pearson([1, 2, 3], [2, 4, 6]); // 1
 */
export function pearson(xs: readonly number[], ys: readonly number[]): number | null {
  if (xs.length !== ys.length) throw new RangeError('pearson needs lists of equal length');
  const meanX = mean(xs);
  const meanY = mean(ys);
  if (meanX === null || meanY === null || xs.length < 2) return null;
  let covariance = 0;
  let varianceX = 0;
  let varianceY = 0;
  xs.forEach((x, index) => {
    const dx = x - meanX;
    const dy = (ys[index] as number) - meanY;
    covariance += dx * dy;
    varianceX += dx * dx;
    varianceY += dy * dy;
  });
  if (varianceX === 0 || varianceY === 0) return null;
  return Math.max(-1, Math.min(1, covariance / Math.sqrt(varianceX * varianceY)));
}

/**
 * `value` limited to `min…max`.
 *
 * @example
 * clamp(2.4, 0, 2); // 2
 */
export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/**
 * Highest minus lowest (0 for no value): how far the judge's samples of one artefact disagree.
 *
 * @example
 * spread([3, 4.5, 4]); // 1.5
 */
export function spread(values: readonly number[]): number {
  if (values.length === 0) return 0;
  return Math.max(...values) - Math.min(...values);
}

/**
 * `value` rounded to `digits` decimals, without binary noise such as 0.30000000000000004 or
 * 1.2000000000000002 (stored weights, costs and medians stay clean). `Number.EPSILON` is
 * added first so that a decimal stored just below its half (1.005 is 1.00499999…) rounds
 * as written (1.01).
 *
 * @example
 * roundTo(1.23456, 4); // 1.2346
 * roundTo(4.25, 1);    // 4.3
 */
export function roundTo(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round((value + Number.EPSILON) * factor) / factor;
}
