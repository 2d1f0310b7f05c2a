import { describe, expect, it } from 'vitest';
import {
  DEFAULT_EVALUATION_CONFIG,
  resolveEvaluationConfig,
} from '../../lambdas/core/schemas/evaluation-config.js';
import {
  applyPatternLifecycle,
  decideProvisional,
  patternAccuracy,
} from '../../lambdas/core/patterns/lifecycle/provisional.js';
import type { Pattern } from '../../lambdas/core/schemas/evaluation.js';
import { makePattern } from '../support/evaluation.js';

const pattern = (overrides: Parameters<typeof makePattern>[0]) =>
  makePattern({ status: 'provisional', ...overrides });
const tested = (
  timesTested: number,
  timesCorrect: number,
  status: Pattern['status'] = 'provisional',
) => pattern({ timesTested, timesCorrect, status });
const config = DEFAULT_EVALUATION_CONFIG;

describe('Function: patternAccuracy', () => {
  it('is correct ÷ tested, and 0 before any test', () => {
    expect(patternAccuracy(tested(10, 7))).toBe(0.7);
    expect(patternAccuracy(tested(0, 0))).toBe(0);
  });
});

describe('Function: decideProvisional', () => {
  it.each([
    [10, 7, 'validate'],
    [10, 8, 'validate'],
    [9, 9, 'keep'],
    [10, 6, 'keep'],
    [20, 14, 'validate'],
    [5, 1, 'reject'],
    [4, 0, 'keep'],
    [10, 2, 'reject'],
    [10, 3, 'keep'],
    [20, 5, 'reject'],
    [6, 2, 'keep'],
  ] as const)('with %i tested and %i correct decides %s', (timesTested, timesCorrect, decision) => {
    // Prepare: validate at ≥ 10 tests and ≥ 0.7; reject at ≥ 5 tests and < 0.3
    const candidate = tested(timesTested, timesCorrect);

    // Act
    const result = decideProvisional(candidate, config);

    // Assess
    expect(result).toBe(decision);
  });

  it('never changes a pattern that is not provisional', () => {
    expect(decideProvisional(tested(20, 20, 'active'), config)).toBe('keep');
    expect(decideProvisional(tested(20, 0, 'active'), config)).toBe('keep');
    expect(decideProvisional(tested(20, 20, 'rejected'), config)).toBe('keep');
    expect(decideProvisional(tested(20, 20, 'pruned'), config)).toBe('keep');
  });

  it('checks the commit rule first when thresholds overlap', () => {
    const overlapping = resolveEvaluationConfig({
      patterns: { validateMinAccuracy: 0.2, rejectMaxAccuracy: 0.5 },
    });
    expect(decideProvisional(tested(10, 3), overlapping)).toBe('validate');
  });

  it('follows a raised validation threshold (recovery: require 80%)', () => {
    expect(
      decideProvisional(
        tested(10, 7),
        resolveEvaluationConfig({ patterns: { validateMinAccuracy: 0.8 } }),
      ),
    ).toBe('keep');
    expect(
      decideProvisional(
        tested(10, 8),
        resolveEvaluationConfig({ patterns: { validateMinAccuracy: 0.8 } }),
      ),
    ).toBe('validate');
  });
});

describe('Function: applyPatternLifecycle', () => {
  it('validates to active, rejects, and reports each decision', () => {
    // Prepare
    const patterns = [
      pattern({ id: 'p_win', timesTested: 10, timesCorrect: 9 }),
      pattern({ id: 'p_lose', timesTested: 5, timesCorrect: 1 }),
      pattern({ id: 'p_wait', timesTested: 3, timesCorrect: 3 }),
      pattern({ id: 'p_old', status: 'active', timesTested: 50, timesCorrect: 1 }),
    ];

    // Act
    const { patterns: updated, events } = applyPatternLifecycle(patterns, config);

    // Assess
    expect(updated.map((p) => [p.id, p.status])).toEqual([
      ['p_win', 'active'],
      ['p_lose', 'rejected'],
      ['p_wait', 'provisional'],
      ['p_old', 'active'],
    ]);
    expect(events).toEqual([
      { type: 'committed_pattern', patternId: 'p_win', accuracy: 0.9 },
      { type: 'rejected_pattern', patternId: 'p_lose', accuracy: 0.2 },
    ]);
    expect(updated[2]).toBe(patterns[2]);
    expect(patterns[0]?.status).toBe('provisional');
  });
});
