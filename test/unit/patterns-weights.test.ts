import { describe, expect, it } from 'vitest';
import {
  DEFAULT_EVALUATION_CONFIG,
  resolveEvaluationConfig,
} from '../../lambdas/core/schemas/evaluation-config.js';
import {
  recalibratedWeight,
  recalibrateWeights,
} from '../../lambdas/core/patterns/lifecycle/weights.js';
import { makePattern } from '../support/evaluation.js';

const config = DEFAULT_EVALUATION_CONFIG;

describe('Function: recalibratedWeight', () => {
  it.each([
    [1, 0.5, 0.5, 1],
    [1, 0.9, 0.5, 1.4],
    [1, 1, 1, 2],
    [1, 0, 1, 0],
    [2, 0, 0.5, 1],
    [1, 0.1, 0.5, 0.6],
    [1, 0.7, 0, 1],
  ])('moves %d toward 2 × accuracy %d at rate %d: %d', (weight, accuracy, rate, expected) => {
    expect(recalibratedWeight(weight, accuracy, rate)).toBe(expected);
  });

  it('stays within 0…2 and free of float noise', () => {
    expect(recalibratedWeight(2, 1, 0.5)).toBe(2);
    expect(recalibratedWeight(0, 0, 0.5)).toBe(0);
    expect(recalibratedWeight(1, 0.6, 0.5)).toBe(1.1);
  });
});

describe('Function: recalibrateWeights', () => {
  it('recalibrates active patterns tested at least recalibrateMinTests times', () => {
    // Prepare
    const patterns = [
      makePattern({ id: 'p_sure', timesTested: 5, timesCorrect: 5 }),
      makePattern({ id: 'p_young', timesTested: 4, timesCorrect: 4 }),
      makePattern({ id: 'p_trial', status: 'provisional', timesTested: 10, timesCorrect: 10 }),
      makePattern({ id: 'p_gone', status: 'pruned', timesTested: 10, timesCorrect: 0 }),
    ];

    // Act
    const { patterns: updated, events } = recalibrateWeights(patterns, config);

    // Assess
    expect(updated.map((p) => p.weight)).toEqual([1.5, 1, 1, 1]);
    expect(events).toEqual([{ type: 'reweighted_pattern', patternId: 'p_sure', from: 1, to: 1.5 }]);
    expect(updated[1]).toBe(patterns[1]);
  });

  it('reports nothing when a weight is already where agreement puts it', () => {
    const patterns = [makePattern({ timesTested: 10, timesCorrect: 5 })];
    expect(recalibrateWeights(patterns, config).events).toEqual([]);
  });

  it('follows a reduced learning rate', () => {
    const patterns = [makePattern({ timesTested: 10, timesCorrect: 10 })];
    expect(
      recalibrateWeights(
        patterns,
        resolveEvaluationConfig({ patterns: { weightLearningRate: 0.25 } }),
      ).patterns[0]?.weight,
    ).toBe(1.25);
  });
});
