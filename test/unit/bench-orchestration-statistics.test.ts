import { describe, expect, it } from 'vitest';
import { percentile, round, roundedStats, stats } from '../../bench/orchestration/statistics.js';

describe('bench/orchestration: statistics', () => {
  it('interpolates percentiles linearly between closest ranks, as numpy does', () => {
    expect(percentile([1, 2, 3, 4], 50)).toBe(2.5);
    expect(percentile([10, 20, 30, 40, 50], 95)).toBeCloseTo(48);
    expect(percentile([], 50)).toBeNaN();
  });

  it('summarises unsorted values; an empty list gives NaN figures, a mean of 0', () => {
    expect(stats([4, 1, 3, 2])).toEqual({
      n: 4,
      median: 2.5,
      p95: expect.closeTo(3.85),
      min: 1,
      max: 4,
      q1: 1.75,
      q3: 3.25,
      mean: 2.5,
    });
    expect(stats([])).toMatchObject({ n: 0, median: NaN, min: NaN, max: NaN, mean: 0 });
  });

  it('rounds every figure but the count to 2 decimals', () => {
    expect(roundedStats([1 / 3])).toEqual({
      n: 1,
      median: 0.33,
      p95: 0.33,
      min: 0.33,
      max: 0.33,
      q1: 0.33,
      q3: 0.33,
      mean: 0.33,
    });
    expect(round(2.25)).toBe(2.3);
    expect(round(1.005, 2)).toBe(1);
  });
});
