import { describe, expect, it } from 'vitest';
import { lowerScoreAuc, precision, recall } from '../../lambdas/core/calibration/binary-metrics.js';
import { cohenKappa, confusionOf } from '../../lambdas/core/gap/kappa.js';

describe('Function: confusionOf', () => {
  it('counts each pair in its cell, defect being the positive class', () => {
    // Act
    const confusion = confusionOf([
      { actual: true, predicted: true },
      { actual: true, predicted: true },
      { actual: true, predicted: false },
      { actual: false, predicted: true },
      { actual: false, predicted: false },
      { actual: false, predicted: false },
      { actual: false, predicted: false },
    ]);

    // Assess
    expect(confusion).toEqual({ tp: 2, fn: 1, fp: 1, tn: 3 });
  });

  it('is all zeros without a pair', () => {
    expect(confusionOf([])).toEqual({ tp: 0, fp: 0, fn: 0, tn: 0 });
  });
});

describe('Function: cohenKappa', () => {
  it.each([
    // The worked examples of Cohen's kappa (Wikipedia), computed by hand: pₒ, pₑ, then κ.
    [{ tp: 20, fp: 5, fn: 10, tn: 15 }, 0.4],
    [{ tp: 45, fp: 25, fn: 15, tn: 15 }, 0.06 / 0.46],
    [{ tp: 25, fp: 5, fn: 35, tn: 35 }, 0.14 / 0.54],
  ])('matches the reference value for %o', (confusion, kappa) => {
    expect(cohenKappa(confusion)).toBeCloseTo(kappa, 12);
  });

  it('is exactly 1 for perfect agreement with both classes present', () => {
    expect(cohenKappa({ tp: 3, fp: 0, fn: 0, tn: 7 })).toBe(1);
  });

  it('is 0 for a detector that never flags while the humans flag half', () => {
    expect(cohenKappa({ tp: 0, fp: 0, fn: 5, tn: 5 })).toBe(0);
  });

  it('is negative when the detector flags exactly the other stories', () => {
    expect(cohenKappa({ tp: 0, fp: 5, fn: 5, tn: 0 })).toBe(-1);
  });

  it.each([
    ['no story at all', { tp: 0, fp: 0, fn: 0, tn: 0 }],
    ['both sides say "no defect" for every story', { tp: 0, fp: 0, fn: 0, tn: 9 }],
    ['both sides say "defect" for every story', { tp: 4, fp: 0, fn: 0, tn: 0 }],
  ])('is null (0/0) with %s', (_case, confusion) => {
    expect(cohenKappa(confusion)).toBeNull();
  });
});

describe('Functions: precision and recall', () => {
  it('are the shares of flagged and of labelled defects that agree', () => {
    const confusion = { tp: 3, fp: 1, fn: 2, tn: 4 };
    expect(precision(confusion)).toBe(0.75);
    expect(recall(confusion)).toBe(0.6);
  });

  it('are null when their denominator is empty', () => {
    expect(precision({ tp: 0, fp: 0, fn: 2, tn: 4 })).toBeNull();
    expect(recall({ tp: 0, fp: 3, fn: 0, tn: 4 })).toBeNull();
  });
});

describe('Function: lowerScoreAuc', () => {
  const items = (positives: number[], negatives: number[]) => [
    ...positives.map((score) => ({ score, positive: true })),
    ...negatives.map((score) => ({ score, positive: false })),
  ];

  it('is 1 when every defective story scores below every clean one', () => {
    expect(lowerScoreAuc(items([1, 2], [3, 4.5]))).toBe(1);
  });

  it('is 0 when every defective story scores above every clean one', () => {
    expect(lowerScoreAuc(items([4, 5], [1, 2]))).toBe(0);
  });

  it('counts a tie as half a win', () => {
    // (1,3) win, (1,5) win, (3,3) half, (3,5) win: 3.5 of 4 pairs.
    expect(lowerScoreAuc(items([1, 3], [3, 5]))).toBe(0.875);
  });

  it('is 0.5 for a constant score', () => {
    expect(lowerScoreAuc(items([3, 3, 3], [3, 3]))).toBe(0.5);
  });

  it('agrees with counting every pair, whatever the order of the input', () => {
    // Prepare: scores on a coarse grid, so that ties are common.
    const positives = [2.5, 3, 3, 4, 1.5, 3, 2.5];
    const negatives = [3, 4, 4.5, 2.5, 3, 5, 4];
    let wins = 0;
    for (const p of positives) for (const n of negatives) wins += p < n ? 1 : p === n ? 0.5 : 0;

    // Act
    const auc = lowerScoreAuc(items(positives, negatives).reverse());

    // Assess
    expect(auc).toBeCloseTo(wins / (positives.length * negatives.length), 12);
  });

  it('is null without a defective or without a clean story', () => {
    expect(lowerScoreAuc(items([], [1, 2]))).toBeNull();
    expect(lowerScoreAuc(items([1, 2], []))).toBeNull();
    expect(lowerScoreAuc([])).toBeNull();
  });
});
