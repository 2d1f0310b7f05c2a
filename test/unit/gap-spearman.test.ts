import { describe, expect, it } from 'vitest';
import { spearman } from '../../lambdas/core/gap/spearman.js';

describe('Function: spearman', () => {
  it('is 1 when both modes rank the artefacts alike, whatever the distances', () => {
    // Prepare
    const expensive = [4.5, 3.0, 2.0];
    const cheap = [4.0, 3.5, 1.0];

    // Act
    const rho = spearman(expensive, cheap);

    // Assess
    expect(rho).toBe(1);
  });

  it('is −1 for opposite rankings', () => {
    expect(spearman([1, 2, 3, 4], [4, 3, 2, 1])).toBe(-1);
  });

  it('gives tied scores their average rank', () => {
    // Prepare: ranks [1, 2.5, 2.5, 4] against [1, 3, 2, 4] (reference value computed apart)
    const expensive = [1, 2, 2, 3];
    const cheap = [1, 3, 2, 4];

    // Act
    const rho = spearman(expensive, cheap);

    // Assess
    expect(rho).toBeCloseTo(0.9486832980505138, 12);
  });

  it('matches a reference value on decimal scores with ties on both sides', () => {
    expect(spearman([4.5, 3.0, 3.0, 2.0, 4.0], [4.0, 3.5, 2.5, 2.5, 3.0])).toBeCloseTo(
      0.7631578947368421,
      12,
    );
  });

  it.each([
    ['no artefact', [], []],
    ['one artefact', [4], [3]],
    ['a constant judge', [4, 4, 4], [3, 4, 5]],
    ['a constant cheap mode', [3, 4, 5], [4, 4, 4]],
  ])('is undefined (null) with %s', (_case, expensive, cheap) => {
    expect(spearman(expensive, cheap)).toBeNull();
  });

  it('is defined from two artefacts on', () => {
    expect(spearman([3, 4], [2, 5])).toBe(1);
  });

  it('refuses unpaired scores', () => {
    expect(() => spearman([1, 2], [1])).toThrow(RangeError);
  });
});
