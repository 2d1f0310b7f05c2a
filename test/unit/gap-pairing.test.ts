import { describe, expect, it } from 'vitest';
import { measureAgreement } from '../../lambdas/core/gap/agreement.js';
import { gapDelta, iterationGap } from '../../lambdas/core/gap/gap.js';
import { pairResults } from '../../lambdas/core/gap/pairing.js';
import type {
  CheapModeResult,
  ExpensiveModeResult,
} from '../../lambdas/core/schemas/evaluation.js';
import { InvalidInputError } from '../../lambdas/core/errors.js';
import { makeCheapResult, makeFailedResult, makeJudgedResult } from '../support/evaluation.js';

const usage = { inputTokens: 100, outputTokens: 50, costUsd: 0.01 };
const cheap = (artefactId: string, gestalt: number): CheapModeResult =>
  makeCheapResult({ artefactId, gestalt, rawScore: ((gestalt - 1) * 5) / 4 });
const judged = (artefactId: string, gestalt: number): ExpensiveModeResult =>
  makeJudgedResult({ artefactId, gestalt, reasoning: 'because', usage });
const failed = (artefactId: string): ExpensiveModeResult => makeFailedResult({ artefactId, usage });

describe('Function: pairResults', () => {
  it('pairs by artefact id, sorted, with the gap expensive − cheap', () => {
    // Prepare
    const cheapResults = [cheap('b', 3.2), cheap('a', 4.2)];
    const expensive = [judged('a', 4.5), judged('b', 4.5)];

    // Act
    const paired = pairResults(cheapResults, expensive);

    // Assess
    expect(
      paired.pairs.map(({ artefactId, expensive, cheap, gap }) => [
        artefactId,
        expensive,
        cheap,
        gap,
      ]),
    ).toEqual([
      ['a', 4.5, 4.2, 4.5 - 4.2],
      ['b', 4.5, 3.2, 4.5 - 3.2],
    ]);
    expect(paired.judgeFailed).toEqual([]);
    expect(paired.missingCheap).toEqual([]);
    expect(paired.missingJudge).toEqual([]);
  });

  it('excludes failed judge evaluations instead of scoring them 0', () => {
    // Prepare
    const cheapResults = [cheap('a', 4), cheap('b', 2)];

    // Act
    const paired = pairResults(cheapResults, [judged('a', 4.4), failed('b')]);

    // Assess
    expect(paired.pairs.map((pair) => pair.artefactId)).toEqual(['a']);
    expect(paired.judgeFailed.map((failure) => failure.artefactId)).toEqual(['b']);
  });

  it('reports each side missing its counterpart', () => {
    // Act
    const paired = pairResults([cheap('c', 3), cheap('a', 3)], [judged('a', 3), judged('b', 3)]);

    // Assess
    expect(paired.missingCheap).toEqual(['b']);
    expect(paired.missingJudge).toEqual(['c']);
    expect(paired.pairs).toHaveLength(1);
  });

  it('counts a failed judge without a cheap result as failed only', () => {
    const paired = pairResults([], [failed('z')]);
    expect(paired.judgeFailed).toHaveLength(1);
    expect(paired.missingCheap).toEqual([]);
  });

  it('refuses two results of one mode for the same artefact, naming it', () => {
    // Act
    const act = () => pairResults([cheap('a', 3), cheap('a', 4)], [judged('a', 3)]);

    // Assess
    expect(act).toThrow(InvalidInputError);
    expect(act).toThrow(/artefact a has more than one result/);
    expect(() => pairResults([cheap('a', 3)], [judged('a', 3), failed('a')])).toThrow(
      /expensive mode results/,
    );
  });
});

describe('Function: iterationGap', () => {
  it('averages both modes over the same artefacts only', () => {
    // Prepare: 'b' failed at the judge; its cheap 1.0 must not pull the cheap average down
    const { pairs } = pairResults(
      [cheap('a', 4.0), cheap('b', 1.0), cheap('c', 3.6)],
      [judged('a', 4.4), failed('b'), judged('c', 4.0)],
    );

    // Act
    const gap = iterationGap(pairs);

    // Assess
    expect(gap.artefactIds).toEqual(['a', 'c']);
    expect(gap.expensiveAvg).toBeCloseTo(4.2, 12);
    expect(gap.cheapAvg).toBeCloseTo(3.8, 12);
    expect(gap.gap).toBeCloseTo(0.4, 12);
  });

  it('is negative when the cheap mode over-scores', () => {
    const { pairs } = pairResults([cheap('a', 4.5)], [judged('a', 3.5)]);
    expect(iterationGap(pairs).gap).toBe(-1);
  });

  it('has no averages or gap without a paired artefact', () => {
    expect(iterationGap([])).toEqual({
      artefactIds: [],
      expensiveAvg: null,
      cheapAvg: null,
      gap: null,
    });
  });
});

describe('Function: gapDelta', () => {
  it('is the change since the previous gap', () => {
    expect(gapDelta(0.4, 0.5)).toBeCloseTo(-0.1, 12);
    expect(gapDelta(0.7, 0.5)).toBeCloseTo(0.2, 12);
  });

  it('is null on the first iteration or when either gap is unknown', () => {
    expect(gapDelta(0.4, undefined)).toBeNull();
    expect(gapDelta(0.4, null)).toBeNull();
    expect(gapDelta(null, 0.4)).toBeNull();
  });
});

describe('Function: measureAgreement', () => {
  it('computes MAE from absolute per-artefact gaps, with rho and kappa', () => {
    // Prepare: errors +0.4 and −0.4 cancel in the gap but not in the MAE
    const { pairs } = pairResults(
      [cheap('a', 4.6), cheap('b', 2.4), cheap('c', 3)],
      [judged('a', 5), judged('b', 2), judged('c', 3)],
    );

    // Act
    const agreement = measureAgreement(pairs);

    // Assess
    expect(iterationGap(pairs).gap).toBeCloseTo(0, 12);
    expect(agreement.mae).toBeCloseTo(0.8 / 3, 12);
    expect(agreement.spearman).toBe(1);
    expect(agreement.qwk).toBe(1);
  });

  it('is undefined everywhere without artefacts, and rho/kappa with one', () => {
    expect(measureAgreement([])).toEqual({ mae: null, spearman: null, qwk: null });
    const { pairs } = pairResults([cheap('a', 3)], [judged('a', 4)]);
    expect(measureAgreement(pairs)).toEqual({ mae: 1, spearman: null, qwk: null });
  });
});
