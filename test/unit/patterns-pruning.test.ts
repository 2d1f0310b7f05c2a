import { describe, expect, it } from 'vitest';
import { DEFAULT_EVALUATION_CONFIG } from '../../lambdas/core/schemas/evaluation-config.js';
import {
  markPruned,
  prunePatterns,
  pruneReason,
} from '../../lambdas/core/patterns/lifecycle/pruning.js';
import { makePattern } from '../support/evaluation.js';

const config = DEFAULT_EVALUATION_CONFIG;

describe('Function: pruneReason', () => {
  it.each([
    [5, 14, null],
    [5, 15, 'unused'],
    [5, 16, 'unused'],
  ] as const)(
    'last fired at %i, at iteration %i: %s (10 unused iterations)',
    (lastFired, iteration, reason) => {
      expect(pruneReason(makePattern({ lastFiredIteration: lastFired }), iteration, config)).toBe(
        reason,
      );
    },
  );

  it('counts from the learning iteration when the pattern never fired', () => {
    expect(pruneReason(makePattern({ learnedIteration: 3 }), 12, config)).toBeNull();
    expect(pruneReason(makePattern({ learnedIteration: 3 }), 13, config)).toBe('unused');
    expect(pruneReason(makePattern({}), 10, config)).toBe('unused');
  });

  it.each([
    [0.09, 'low_weight'],
    [0.1, null],
    [0.0999999999999, null],
    [0, 'low_weight'],
  ] as const)('with weight %d: %s (minimum 0.1)', (weight, reason) => {
    expect(pruneReason(makePattern({ weight, lastFiredIteration: 9 }), 10, config)).toBe(reason);
  });

  it('prunes provisional patterns too, but leaves rejected and pruned ones alone', () => {
    expect(pruneReason(makePattern({ status: 'provisional' }), 10, config)).toBe('unused');
    expect(pruneReason(makePattern({ status: 'rejected' }), 10, config)).toBeNull();
    expect(pruneReason(makePattern({ status: 'pruned', weight: 0 }), 10, config)).toBeNull();
  });
});

describe('Function: prunePatterns', () => {
  it('marks pruned without deleting and reports why', () => {
    // Prepare
    const patterns = [
      makePattern({ id: 'p_idle', lastFiredIteration: 1 }),
      makePattern({ id: 'p_light', weight: 0.05, lastFiredIteration: 11 }),
      makePattern({ id: 'p_fine', lastFiredIteration: 11 }),
    ];

    // Act
    const { patterns: updated, events } = prunePatterns(patterns, 12, config);

    // Assess
    expect(updated.map((p) => [p.id, p.status])).toEqual([
      ['p_idle', 'pruned'],
      ['p_light', 'pruned'],
      ['p_fine', 'active'],
    ]);
    expect(events).toEqual([
      { type: 'pruned_pattern', patternId: 'p_idle', reason: 'unused' },
      { type: 'pruned_pattern', patternId: 'p_light', reason: 'low_weight' },
    ]);
  });
});

describe('Function: markPruned', () => {
  it('prunes the named live patterns only', () => {
    // Prepare
    const patterns = [
      makePattern({ id: 'p_a' }),
      makePattern({ id: 'p_b', status: 'rejected' }),
      makePattern({ id: 'p_c', status: 'provisional' }),
    ];

    // Act
    const { patterns: updated, events } = markPruned(
      patterns,
      ['p_a', 'p_b', 'p_c', 'p_zz'],
      'never_fired',
    );

    // Assess
    expect(updated.map((p) => p.status)).toEqual(['pruned', 'rejected', 'pruned']);
    expect(events.map((event) => event.type === 'pruned_pattern' && event.patternId)).toEqual([
      'p_a',
      'p_c',
    ]);
  });
});
