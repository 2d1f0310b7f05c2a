import { describe, expect, it } from 'vitest';
import { DEFAULT_EVALUATION_CONFIG } from '../../lambdas/core/schemas/evaluation-config.js';
import { buildIterationMetrics } from '../../lambdas/core/gap/iteration-metrics.js';
import { IterationMetricsSchema } from '../../lambdas/core/schemas/analysis/metrics.js';
import type {
  CheapModeResult,
  ExpensiveModeResult,
} from '../../lambdas/core/schemas/evaluation.js';
import { InvalidInputError } from '../../lambdas/core/errors.js';
import {
  GOOD_STORY_REASONS,
  makeCheapResult,
  makeFailedResult,
  makeJudgedResult,
  makePattern,
} from '../support/evaluation.js';

const pattern = (overrides: Parameters<typeof makePattern>[0]) =>
  makePattern({ type: 'bad', ...overrides });
const cheap = (
  artefactId: string,
  gestalt: number,
  patternsMatched: string[] = [],
): CheapModeResult =>
  makeCheapResult({ artefactId, gestalt, reasons: GOOD_STORY_REASONS, patternsMatched });
const judged = (
  artefactId: string,
  gestalt: number,
  weaknesses: string[] = [],
): ExpensiveModeResult => makeJudgedResult({ artefactId, gestalt, weaknesses });
const failed = (artefactId: string): ExpensiveModeResult => makeFailedResult({ artefactId });
const patternSet = {
  version: 4,
  patterns: [
    pattern({ id: 'p_vague', keywords: ['vague'] }),
    pattern({ id: 'p_value', type: 'good' }),
    pattern({ id: 'p_new', status: 'provisional' }),
    pattern({ id: 'p_old', status: 'pruned' }),
  ],
};
const config = DEFAULT_EVALUATION_CONFIG;
const TIMESTAMP = '2026-01-16T14:30:00Z';

describe('Function: buildIterationMetrics', () => {
  it('records gap, agreement, coverage, counts and the judge over the same artefacts', () => {
    // Prepare
    const cheapResults = [
      cheap('a', 4.2, ['p_vague']),
      cheap('b', 3.2),
      cheap('c', 3.0),
      cheap('d', 1.0),
    ];
    const expensive = [
      judged('a', 4.5, ['Slightly vague criteria']),
      judged('b', 4.0, ['No rollback plan']),
      judged('c', 3.3),
      failed('d'),
    ];

    // Act
    const metrics = buildIterationMetrics(
      {
        iteration: 5,
        timestamp: TIMESTAMP,
        cheap: cheapResults,
        expensive,
        patternSet,
        patternEvents: [
          { type: 'committed_pattern', patternId: 'p_x', accuracy: 0.8 },
          { type: 'rejected_pattern', patternId: 'p_y', accuracy: 0.1 },
          { type: 'rejected_pattern', patternId: 'p_z', accuracy: 0.2 },
        ],
      },
      config,
    );

    // Assess
    expect(metrics).toMatchObject({
      iteration: 5,
      timestamp: TIMESTAMP,
      patternSetVersion: 4,
      artefactIds: ['a', 'b', 'c'],
      gapDelta: null,
      spearman: 1,
      coverage: 0.5,
      patternCount: 2,
      provisionalPatterns: 1,
      patternsCommitted: 1,
      patternsRejected: 2,
      failedEvaluations: 1,
      judgeFailureRate: 0.25,
      judgeReliable: false,
      regressionDetected: false,
    });
    expect(metrics.expensiveAvg).toBeCloseTo(3.9333333, 6);
    expect(metrics.cheapAvg).toBeCloseTo(3.4666667, 6);
    expect(metrics.gap).toBeCloseTo(0.4666667, 6);
    expect(metrics.mae).toBeCloseTo(0.4666667, 6);
    expect(IterationMetricsSchema.parse(metrics)).toEqual(metrics);
  });

  it('computes the gap delta and regression against the previous iteration', () => {
    // Prepare
    const input = {
      iteration: 1,
      timestamp: TIMESTAMP,
      cheap: [cheap('a', 4), cheap('b', 3)],
      patternSet,
    };
    const previous = buildIterationMetrics(
      { ...input, expensive: [judged('a', 4.2), judged('b', 3.2)] },
      config,
    );

    // Act
    const current = buildIterationMetrics(
      {
        ...input,
        iteration: 2,
        expensive: [judged('a', 4.5), judged('b', 3.5)],
        patternSet: { ...patternSet, version: 5 },
        previous,
      },
      config,
    );

    // Assess
    expect(current.gapDelta).toBeCloseTo(0.3, 12);
    expect(current.regressionDetected).toBe(true);
  });

  it('judges a pattern change on the same artefacts when a baseline of the previous set is given', () => {
    // Prepare: the judge rose by 0.3 (the artefacts improved) while the cheap mode, with the
    // old set or the new one, scores them the same: the patterns did no harm.
    const input = {
      iteration: 1,
      timestamp: TIMESTAMP,
      cheap: [cheap('a', 4), cheap('b', 3)],
      patternSet,
    };
    const previous = buildIterationMetrics(
      { ...input, expensive: [judged('a', 4.2), judged('b', 3.2)] },
      config,
    );
    const now = [judged('a', 4.5), judged('b', 3.5)];
    const baseline = buildIterationMetrics({ ...input, iteration: 2, expensive: now }, config);

    // Act
    const current = buildIterationMetrics(
      {
        ...input,
        iteration: 2,
        expensive: now,
        patternSet: { ...patternSet, version: 5 },
        previous,
        regressionBaseline: baseline,
      },
      config,
    );

    // Assess: the gap still rose against the previous iteration, but not by the patterns.
    expect(current.gapDelta).toBeCloseTo(0.3, 12);
    expect(current.regressionDetected).toBe(false);
  });

  it('records nulls, not zeros, when no artefact was scored by both modes', () => {
    // Act
    const metrics = buildIterationMetrics(
      {
        iteration: 1,
        timestamp: TIMESTAMP,
        cheap: [cheap('a', 3)],
        expensive: [failed('a')],
        patternSet,
      },
      config,
    );

    // Assess
    expect(metrics).toMatchObject({
      artefactIds: [],
      expensiveAvg: null,
      cheapAvg: null,
      gap: null,
      mae: null,
      spearman: null,
      qwk: null,
      coverage: null,
      judgeFailureRate: 1,
      judgeReliable: false,
    });
  });

  it('refuses a timestamp that is not ISO 8601', () => {
    const act = () =>
      buildIterationMetrics(
        { iteration: 1, timestamp: 'yesterday', cheap: [], expensive: [], patternSet },
        config,
      );
    expect(act).toThrow(InvalidInputError);
    expect(act).toThrow(/timestamp/);
  });
});
