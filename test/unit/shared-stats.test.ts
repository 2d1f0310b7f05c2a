import { describe, expect, it } from 'vitest';
import {
  averageRanks,
  clamp,
  mean,
  median,
  pearson,
  roundTo,
  sampleVariance,
  spread,
} from '../../lambdas/core/shared/stats.js';

describe('Function: mean', () => {
  it('averages the values and has no mean for no value', () => {
    // Prepare
    const values = [3, 4, 5, 4];

    // Act
    const result = mean(values);

    // Assess
    expect(result).toBe(4);
    expect(mean([])).toBeNull();
    expect(mean([2.5])).toBe(2.5);
  });
});

describe('Function: median', () => {
  it.each([
    [[4, 2, 5], 4],
    [[5, 2, 4], 4],
    [[3, 4], 3.5],
    [[4, 3], 3.5],
    [[5], 5],
    [[1, 5, 3, 3], 3],
    [[1, 5, 4, 2], 3],
  ])('of %j is %d', (values, expected) => {
    // Act
    const result = median(values);

    // Assess
    expect(result).toBe(expected);
  });

  it('has no median for no value and leaves the input unsorted', () => {
    // Prepare
    const values = [5, 1, 3];

    // Act
    median(values);

    // Assess
    expect(values).toEqual([5, 1, 3]);
    expect(median([])).toBeNull();
  });
});

describe('Function: sampleVariance', () => {
  it('divides by n − 1, as Python statistics.variance', () => {
    // Act
    const result = sampleVariance([3, 4, 5]);

    // Assess
    expect(result).toBe(1);
    expect(sampleVariance([4, 5])).toBe(0.5);
  });

  it('is 0 below two values, where no spread can be measured', () => {
    expect(sampleVariance([])).toBe(0);
    expect(sampleVariance([4])).toBe(0);
    expect(sampleVariance([4, 4, 4])).toBe(0);
  });
});

describe('Function: averageRanks', () => {
  it('ranks from 1 in input order and gives ties their average rank', () => {
    // Act
    const result = averageRanks([30, 10, 20, 20]);

    // Assess
    expect(result).toEqual([4, 1, 2.5, 2.5]);
  });

  it('gives every value the middle rank when all tie, and nothing for nothing', () => {
    expect(averageRanks([7, 7, 7])).toEqual([2, 2, 2]);
    expect(averageRanks([])).toEqual([]);
  });
});

describe('Function: pearson', () => {
  it('is 1 and −1 for perfect linear relations', () => {
    expect(pearson([1, 2, 3], [2, 4, 6])).toBe(1);
    expect(pearson([1, 2, 3], [3, 2, 1])).toBe(-1);
  });

  it('is undefined (null) below two pairs or with a constant side', () => {
    expect(pearson([], [])).toBeNull();
    expect(pearson([1], [2])).toBeNull();
    expect(pearson([1, 2, 3], [4, 4, 4])).toBeNull();
    expect(pearson([4, 4], [1, 2])).toBeNull();
  });

  it('refuses lists of different lengths', () => {
    expect(() => pearson([1, 2], [1])).toThrow(RangeError);
  });
});

describe('Function: clamp', () => {
  it.each([
    [-0.1, 0],
    [0, 0],
    [1.3, 1.3],
    [2, 2],
    [2.4, 2],
  ])('clamps %d to 0…2 as %d', (value, expected) => {
    expect(clamp(value, 0, 2)).toBe(expected);
  });
});

describe('Function: spread', () => {
  it('is the highest minus the lowest', () => {
    expect(spread([3, 4.5, 4])).toBe(1.5);
    expect(spread([4])).toBe(0);
    expect(spread([])).toBe(0);
  });
});

describe('Function: roundTo', () => {
  it('rounds to the given decimals', () => {
    expect(roundTo(1.23456, 4)).toBe(1.2346);
    expect(roundTo(1 + 0.2 * 1, 4)).toBe(1.2);
    expect(roundTo(3.333333, 2)).toBe(3.33);
  });

  it('rounds without binary noise', () => {
    expect(roundTo(0.1 + 0.2, 6)).toBe(0.3);
    expect(roundTo(4.25, 1)).toBe(4.3);
    expect(roundTo(1.005, 2)).toBe(1.01);
  });
});
