/** Descriptive statistics of the bench's timings, and its rounding for print and JSON. */

export interface Stats {
  n: number;
  median: number;
  p95: number;
  min: number;
  max: number;
  q1: number;
  q3: number;
  mean: number;
}

/** Percentile by linear interpolation between closest ranks (numpy's default). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  const lowValue = sorted[low] ?? Number.NaN;
  const highValue = sorted[high] ?? Number.NaN;
  return lowValue + (highValue - lowValue) * (rank - low);
}

export function stats(values: readonly number[]): Stats {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    n: sorted.length,
    median: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    min: sorted[0] ?? Number.NaN,
    max: sorted[sorted.length - 1] ?? Number.NaN,
    q1: percentile(sorted, 25),
    q3: percentile(sorted, 75),
    mean: sorted.reduce((sum, value) => sum + value, 0) / Math.max(1, sorted.length),
  };
}

export function round(value: number, digits = 1): number {
  return Number(value.toFixed(digits));
}

/** {@link stats} with every figure but the count rounded to 2 decimals. */
export function roundedStats(values: readonly number[]): Stats {
  return roundStats(stats(values));
}

/** `s` with every figure but the count rounded to 2 decimals. */
export function roundStats(s: Stats): Stats {
  return Object.fromEntries(
    Object.entries(s).map(([key, value]) => [key, key === 'n' ? value : round(value, 2)]),
  ) as unknown as Stats;
}
