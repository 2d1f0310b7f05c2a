import { describe, expect, it } from 'vitest';
import { quadraticWeightedKappa, toRating } from '../../lambdas/core/gap/kappa.js';

describe('Function: toRating', () => {
  it.each([
    [1, 1],
    [1.49, 1],
    [1.5, 2],
    [3.5, 4],
    [4.49, 4],
    [4.5, 5],
    [5, 5],
    [0.2, 1],
    [5.6, 5],
  ])('rounds %d to the rating %i', (score, rating) => {
    expect(toRating(score)).toBe(rating);
  });
});

describe('Function: quadraticWeightedKappa', () => {
  it('is 1 for identical ratings', () => {
    // Act
    const kappa = quadraticWeightedKappa([1, 2, 3, 4, 5], [1, 2, 3, 4, 5]);

    // Assess
    expect(kappa).toBe(1);
  });

  it('matches reference values (computed apart from this implementation)', () => {
    expect(quadraticWeightedKappa([1, 2, 3, 4, 5], [1, 2, 3, 4, 4])).toBeCloseTo(
      0.9411764705882353,
      12,
    );
    expect(quadraticWeightedKappa([4.4, 3.6, 2.2, 4.9], [4.0, 3.0, 2.6, 4.5])).toBeCloseTo(
      0.7333333333333334,
      12,
    );
  });

  it('is −1 for exactly reversed ratings', () => {
    expect(quadraticWeightedKappa([1, 2, 3, 4, 5], [5, 4, 3, 2, 1])).toBeCloseTo(-1, 12);
  });

  it('rounds to the 1–5 scale before comparing: 4.4 and 3.6 agree', () => {
    expect(quadraticWeightedKappa([4.4, 2.2], [3.6, 1.8])).toBe(1);
  });

  it('is undefined (null) below two artefacts, even when they disagree', () => {
    expect(quadraticWeightedKappa([], [])).toBeNull();
    expect(quadraticWeightedKappa([2], [4])).toBeNull();
  });

  it('is undefined (null) when both modes put everything in one rating (0/0)', () => {
    expect(quadraticWeightedKappa([4, 4.2, 3.9], [4.1, 3.8, 4])).toBeNull();
  });

  it('is 0 when only one mode is constant: no agreement beyond chance', () => {
    expect(quadraticWeightedKappa([3, 3, 3], [2, 3, 4])).toBe(0);
  });

  it('is defined when both are constant on different ratings', () => {
    expect(quadraticWeightedKappa([4, 4], [2, 2])).toBe(0);
  });

  it('refuses unpaired scores', () => {
    expect(() => quadraticWeightedKappa([1, 2], [1])).toThrow(RangeError);
  });
});
