import { describe, expect, it } from 'vitest';
import { median, roundTo, spread } from '../../lambdas/core/judge/statistics.js';

describe('Function: median', () => {
  it('takes the middle of an odd count, in any order', () => {
    expect(median([5, 2, 4])).toBe(4);
    expect(median([3])).toBe(3);
  });

  it('takes the mean of the two middle values of an even count', () => {
    expect(median([4, 3])).toBe(3.5);
    expect(median([1, 5, 4, 2])).toBe(3);
  });

  it('refuses no values rather than inventing a score', () => {
    expect(() => median([])).toThrow(RangeError);
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
  it('rounds without binary noise', () => {
    expect(roundTo(0.1 + 0.2, 6)).toBe(0.3);
    expect(roundTo(4.25, 1)).toBe(4.3);
    expect(roundTo(3.333333, 2)).toBe(3.33);
  });
});
