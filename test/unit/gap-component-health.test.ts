import { describe, expect, it } from 'vitest';
import {
  assessComponentHealth,
  checkCheapEvaluator,
  checkExpensiveEvaluator,
  checkGapCalculator,
  checkPatternLearner,
} from '../../lambdas/core/gap/component-health.js';
import { DEFAULT_EVALUATION_CONFIG } from '../../lambdas/core/schemas/evaluation-config.js';
import { assessJudgeReliability } from '../../lambdas/core/gap/judge-reliability.js';
import { pairResults } from '../../lambdas/core/gap/pairing.js';
import type { PatternEvent } from '../../lambdas/core/schemas/analysis/actions.js';
import { ComponentHealthSchema } from '../../lambdas/core/schemas/analysis/health.js';
import type {
  CheapModeResult,
  ExpensiveModeResult,
} from '../../lambdas/core/schemas/evaluation.js';
import { makeCheapResult, makeFailedResult, makeJudgedResult } from '../support/evaluation.js';

// gestalt is set after parsing: these tests feed out-of-range scores on purpose.
const cheap = (
  artefactId: string,
  gestalt: number,
  patternsMatched = ['p_001'],
): CheapModeResult => ({ ...makeCheapResult({ artefactId, patternsMatched }), gestalt });
const judged = (artefactId: string, gestalt: number, samples?: number[]): ExpensiveModeResult => ({
  ...makeJudgedResult({ artefactId, ...(samples ? { samples } : {}) }),
  gestalt,
});
const failed = (artefactId: string): ExpensiveModeResult =>
  makeFailedResult({ artefactId, error: 'x' });
const config = DEFAULT_EVALUATION_CONFIG;
const committed = (id: string): PatternEvent => ({
  type: 'committed_pattern',
  patternId: id,
  accuracy: 0.8,
});
const rejected = (id: string): PatternEvent => ({
  type: 'rejected_pattern',
  patternId: id,
  accuracy: 0.1,
});

describe('Function: checkCheapEvaluator', () => {
  it('is healthy with varied, valid scores and patterns firing', () => {
    // Act
    const health = checkCheapEvaluator([cheap('a', 3), cheap('b', 4.5)], 0.9, config);

    // Assess
    expect(health).toEqual({
      healthy: true,
      flags: [],
      details: { results: 2, scoreMin: 3, scoreMax: 4.5, variance: 1.125, coverage: 0.9 },
    });
  });

  it('flags all scores the same from two results on, not a single result', () => {
    expect(checkCheapEvaluator([cheap('a', 3.4), cheap('b', 3.4)], null, config).flags).toEqual([
      'all_same_score',
    ]);
    expect(checkCheapEvaluator([cheap('a', 3.4)], null, config).flags).toEqual([]);
  });

  it('flags scores out of 1–5, at the boundaries exactly', () => {
    expect(checkCheapEvaluator([cheap('a', 1), cheap('b', 5)], null, config).flags).toEqual([]);
    expect(checkCheapEvaluator([cheap('a', 0.99), cheap('b', 5)], null, config).flags).toEqual([
      'scores_out_of_range',
    ]);
    expect(checkCheapEvaluator([cheap('a', 3), cheap('b', 5.01)], null, config).healthy).toBe(
      false,
    );
    expect(
      checkCheapEvaluator([cheap('a', 3), cheap('b', Number.NaN)], null, config).flags,
    ).toContain('scores_out_of_range');
  });

  it('flags zero patterns matched only when no result matched any', () => {
    expect(checkCheapEvaluator([cheap('a', 3, []), cheap('b', 4, [])], null, config).flags).toEqual(
      ['zero_patterns_matched'],
    );
    expect(checkCheapEvaluator([cheap('a', 3, []), cheap('b', 4)], null, config).flags).toEqual([]);
  });

  it('flags no results', () => {
    expect(checkCheapEvaluator([], null, config)).toMatchObject({
      healthy: false,
      flags: ['no_results'],
    });
  });

  it('warns below the coverage target without turning unhealthy', () => {
    expect(checkCheapEvaluator([cheap('a', 3), cheap('b', 4)], 0.79, config)).toMatchObject({
      healthy: true,
      flags: ['low_coverage'],
    });
    expect(checkCheapEvaluator([cheap('a', 3), cheap('b', 4)], 0.8, config).flags).toEqual([]);
  });
});

describe('Function: checkExpensiveEvaluator', () => {
  it('is healthy when the judge answered', () => {
    const results = [judged('a', 4), judged('b', 3)];
    expect(checkExpensiveEvaluator(results, assessJudgeReliability(results, config))).toMatchObject(
      {
        healthy: true,
        flags: [],
        details: { results: 2, failed: 0, failureRate: 0, highVarianceArtefacts: [] },
      },
    );
  });

  it('is unhealthy when the judge is unreliable', () => {
    const results = [judged('a', 4), failed('b'), judged('c', 4), judged('d', 4)];
    expect(checkExpensiveEvaluator(results, assessJudgeReliability(results, config))).toMatchObject(
      {
        healthy: false,
        flags: ['judge_unreliable'],
      },
    );
  });

  it('warns of high variance between re-runs', () => {
    const results = [judged('a', 4, [3, 4, 5]), judged('b', 4)];
    expect(checkExpensiveEvaluator(results, assessJudgeReliability(results, config))).toMatchObject(
      {
        healthy: true,
        flags: ['high_variance'],
        details: { highVarianceArtefacts: ['a'] },
      },
    );
  });

  it('flags no results instead of unreliability', () => {
    expect(checkExpensiveEvaluator([], assessJudgeReliability([], config)).flags).toEqual([
      'no_results',
    ]);
  });

  it('flags judge scores out of range', () => {
    const results = [judged('a', 6), judged('b', 4)];
    expect(checkExpensiveEvaluator(results, assessJudgeReliability(results, config)).flags).toEqual(
      ['scores_out_of_range'],
    );
  });
});

describe('Function: checkGapCalculator', () => {
  it('is healthy when every artefact is paired', () => {
    expect(checkGapCalculator(pairResults([cheap('a', 3)], [judged('a', 4)]))).toMatchObject({
      healthy: true,
      flags: [],
    });
  });

  it('is unhealthy with nothing paired, and warns of unpaired results', () => {
    expect(checkGapCalculator(pairResults([cheap('a', 3)], [failed('a')]))).toMatchObject({
      healthy: false,
      flags: ['no_paired_artefacts'],
      details: { paired: 0, judgeFailed: ['a'] },
    });
    expect(
      checkGapCalculator(pairResults([cheap('a', 3), cheap('b', 3)], [judged('a', 4)])),
    ).toMatchObject({
      healthy: true,
      flags: ['unpaired_artefacts'],
      details: { missingJudge: ['b'] },
    });
  });
});

describe('Function: checkPatternLearner', () => {
  it.each([
    [[], [], false],
    [['p_a'], ['p_b'], false],
    [['p_a'], ['p_b', 'p_c'], true],
    [[], ['p_b'], true],
    [['p_a'], [], false],
  ])('with committed %j and rejected %j flags a high rejection rate: %s', (ok, no, flagged) => {
    // Act
    const health = checkPatternLearner([...ok.map(committed), ...no.map(rejected)], config);

    // Assess
    expect(health.flags).toEqual(flagged ? ['high_rejection_rate'] : []);
    expect(health.healthy).toBe(true);
  });

  it('reports the counts', () => {
    const events: PatternEvent[] = [
      committed('p_a'),
      rejected('p_b'),
      { type: 'merged_patterns', keptId: 'p_c', mergedIds: ['p_d'] },
      { type: 'pruned_pattern', patternId: 'p_e', reason: 'unused' },
    ];
    expect(checkPatternLearner(events, config).details).toEqual({
      committed: 1,
      rejected: 1,
      rejectionRate: 0.5,
      merged: 1,
      pruned: 1,
    });
  });
});

describe('Function: assessComponentHealth', () => {
  it('reports every component in the shape of the log', () => {
    // Prepare
    const cheapResults = [cheap('a', 3), cheap('b', 4)];
    const expensive = [judged('a', 4), judged('b', 4)];

    // Act
    const health = assessComponentHealth(
      {
        cheap: cheapResults,
        expensive,
        paired: pairResults(cheapResults, expensive),
        reliability: assessJudgeReliability(expensive, config),
        coverage: null,
        patternEvents: [],
      },
      config,
    );

    // Assess
    expect(ComponentHealthSchema.parse(health)).toEqual(health);
    expect(Object.values(health).every((status) => status.healthy)).toBe(true);
  });
});
