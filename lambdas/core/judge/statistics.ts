/** The few statistics re-runs of the judge need. */

/**
 * The middle value (the mean of the two middle values for an even count).
 *
 * @example
 * median([4, 2, 5]); // 4
 * median([3, 4]);    // 3.5
 */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] as number;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] as number) + upper) / 2;
}

/**
 * Highest minus lowest: how far the judge's samples of one artefact disagree.
 *
 * @example
 * spread([3, 4.5, 4]); // 1.5
 */
export function spread(values: readonly number[]): number {
  if (values.length === 0) return 0;
  return Math.max(...values) - Math.min(...values);
}

/**
 * Rounds to `digits` decimals, without binary noise such as 0.30000000000000004.
 *
 * @example
 * roundTo(4.25, 1); // 4.3
 */
export function roundTo(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round((value + Number.EPSILON) * factor) / factor;
}
