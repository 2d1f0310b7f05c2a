import { describe, expect, it } from 'vitest';
import {
  cohenKappa as kappaOfCounts,
  confusionOf,
  quadraticWeightedKappa,
  toRating,
} from '../../lambdas/core/gap/kappa.js';

/** Kappa of two raters' verdicts, story by story (the first is the reference). */
const cohenKappa = (first: boolean[], second: boolean[]) =>
  kappaOfCounts(confusionOf(first.map((actual, index) => ({ actual, predicted: second[index]! }))));

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

describe('Function: cohenKappa', () => {
  const yes = true;
  const no = false;

  it('is 1 for identical verdicts and 0 for agreement no better than chance', () => {
    expect(cohenKappa([yes, no, yes, no], [yes, no, yes, no])).toBe(1);
    expect(cohenKappa([yes, yes, no, no], [yes, no, yes, no])).toBe(0);
  });

  it('matches a worked example (computed apart from this implementation)', () => {
    // Prepare: 10 stories; both 3, judge only 1, cheap only 2, neither 4.
    // pₒ = 0.7; pₑ = 0.4·0.5 + 0.6·0.5 = 0.5; κ = (0.7 − 0.5) / 0.5 = 0.4.
    const judge = [yes, yes, yes, yes, no, no, no, no, no, no];
    const cheap = [yes, yes, yes, no, yes, yes, no, no, no, no];

    // Act
    const kappa = cohenKappa(judge, cheap);

    // Assess
    expect(kappa).toBeCloseTo(0.4, 10);
  });

  it('is negative when the raters disagree more than chance would', () => {
    expect(cohenKappa([yes, no, yes, no], [no, yes, no, yes])).toBe(-1);
  });

  it('is null below two stories, and when both raters give one verdict to every story', () => {
    expect(cohenKappa([], [])).toBeNull();
    expect(cohenKappa([yes], [yes])).toBeNull();
    expect(cohenKappa([no, no, no], [no, no, no])).toBeNull();
    expect(cohenKappa([yes, yes], [yes, yes])).toBeNull();
  });

  it('is 0 when one rater is constant and the other is not, or each is constant the other way', () => {
    expect(cohenKappa([no, no, no, no], [yes, no, no, no])).toBe(0);
    expect(cohenKappa([yes, yes], [no, no])).toBe(0);
  });
});
