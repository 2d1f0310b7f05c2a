import { describe, expect, it } from 'vitest';
import { DEFAULT_EVALUATION_CONFIG } from '../../lambdas/core/schemas/evaluation-config.js';
import {
  applyMerges,
  byKeepingOrder,
  findNearDuplicates,
  mergeNearDuplicates,
  patternTerms,
} from '../../lambdas/core/patterns/lifecycle/dedupe.js';
import { makePattern } from '../support/evaluation.js';

const pattern = (overrides: Parameters<typeof makePattern>[0]) =>
  makePattern({ type: 'bad', ...overrides });
/** Five shared terms of six: Jaccard 5/6 ≈ 0.83. */
const FIVE = ['vague', 'unclear', 'fuzzy', 'loose', 'hand wavy'];
const config = DEFAULT_EVALUATION_CONFIG;

describe('Function: patternTerms', () => {
  it('joins keywords and phrases, lower-cased with whitespace collapsed', () => {
    const terms = patternTerms(
      pattern({ keywords: ['Vague', 'vague'], phrases: ['  No   detail '] }),
    );
    expect([...terms]).toEqual(['vague', 'no detail']);
  });
});

describe('Function: byKeepingOrder', () => {
  it('prefers most tested, then most accurate, then active, then the smaller id', () => {
    // Prepare
    const patterns = [
      pattern({ id: 'p_e', status: 'provisional', timesTested: 4, timesCorrect: 2 }),
      pattern({ id: 'p_d', status: 'active', timesTested: 4, timesCorrect: 2 }),
      pattern({ id: 'p_c', timesTested: 4, timesCorrect: 3 }),
      pattern({ id: 'p_b', timesTested: 9, timesCorrect: 0 }),
      pattern({ id: 'p_a', status: 'active', timesTested: 4, timesCorrect: 2 }),
    ];

    // Act
    const order = [...patterns].sort(byKeepingOrder).map((p) => p.id);

    // Assess
    expect(order).toEqual(['p_b', 'p_c', 'p_a', 'p_d', 'p_e']);
  });
});

describe('Function: findNearDuplicates', () => {
  it.each([
    [
      ['vague', 'unclear', 'fuzzy', 'loose'],
      ['vague', 'unclear', 'fuzzy', 'loose', 'blurry'],
      0.8,
      true,
    ],
    [['vague', 'unclear', 'fuzzy'], ['vague', 'unclear', 'fuzzy', 'blurry'], 0.8, false],
    [['vague', 'unclear', 'fuzzy'], ['vague', 'unclear', 'fuzzy', 'blurry'], 0.75, true],
    [['vague'], ['VAGUE'], 0.8, true],
  ])('%j and %j at threshold %d are duplicates: %s', (first, second, threshold, duplicates) => {
    // Prepare: Jaccard 4/5 = 0.8, 3/4 = 0.75, 1
    const patterns = [
      pattern({ id: 'p_a', keywords: first }),
      pattern({ id: 'p_b', keywords: second }),
    ];

    // Act
    const groups = findNearDuplicates(patterns, threshold);

    // Assess
    expect(groups).toEqual(duplicates ? [{ keepId: 'p_a', mergeIds: ['p_b'] }] : []);
  });

  it('compares keywords and phrases together', () => {
    const patterns = [
      pattern({ id: 'p_a', keywords: ['vague'], phrases: ['no detail'] }),
      pattern({ id: 'p_b', keywords: ['no detail'], phrases: ['vague'] }),
    ];
    expect(findNearDuplicates(patterns, 0.8)).toHaveLength(1);
  });

  it('never merges across types, dead patterns, or patterns without terms', () => {
    const patterns = [
      pattern({ id: 'p_a', keywords: FIVE }),
      pattern({ id: 'p_b', type: 'good', keywords: FIVE }),
      pattern({ id: 'p_c', status: 'rejected', keywords: FIVE }),
      pattern({ id: 'p_d', status: 'pruned', keywords: FIVE }),
      pattern({ id: 'p_e', regexes: ['x'] }),
      pattern({ id: 'p_f', regexes: ['x'] }),
    ];
    expect(findNearDuplicates(patterns, 0.8)).toEqual([]);
  });

  it('groups greedily around the best-tested keeper', () => {
    // Prepare: p_b is better tested; p_a and p_c are both close to it
    const patterns = [
      pattern({ id: 'p_a', keywords: FIVE, timesTested: 1, timesCorrect: 1 }),
      pattern({ id: 'p_b', keywords: [...FIVE, 'blurry'], timesTested: 8, timesCorrect: 4 }),
      pattern({
        id: 'p_c',
        keywords: [...FIVE.slice(1), 'blurry'],
        timesTested: 2,
        timesCorrect: 2,
      }),
      pattern({ id: 'p_d', keywords: ['scope'] }),
    ];

    // Act
    const groups = findNearDuplicates(patterns, 0.8);

    // Assess
    expect(groups).toEqual([{ keepId: 'p_b', mergeIds: ['p_c', 'p_a'] }]);
  });
});

describe('Function: applyMerges', () => {
  it('adds the counts to the keeper, prunes the others, keeps every pattern', () => {
    // Prepare
    const patterns = [
      pattern({
        id: 'p_a',
        status: 'provisional',
        timesTested: 6,
        timesCorrect: 5,
        timesFired: 9,
        lastFiredIteration: 4,
      }),
      pattern({
        id: 'p_b',
        status: 'active',
        timesTested: 2,
        timesCorrect: 1,
        timesFired: 3,
        lastFiredIteration: 8,
      }),
      pattern({ id: 'p_c' }),
    ];

    // Act
    const { patterns: updated, events } = applyMerges(patterns, [
      { keepId: 'p_a', mergeIds: ['p_b'] },
    ]);

    // Assess
    expect(updated).toHaveLength(3);
    expect(updated[0]).toMatchObject({
      id: 'p_a',
      status: 'active',
      timesTested: 8,
      timesCorrect: 6,
      timesFired: 12,
      lastFiredIteration: 8,
    });
    expect(updated[1]).toMatchObject({ id: 'p_b', status: 'pruned', timesTested: 2 });
    expect(updated[2]).toBe(patterns[2]);
    expect(events).toEqual([{ type: 'merged_patterns', keptId: 'p_a', mergedIds: ['p_b'] }]);
  });

  it('keeps a provisional keeper provisional when no merged pattern was active', () => {
    const patterns = [
      pattern({ id: 'p_a', status: 'provisional' }),
      pattern({ id: 'p_b', status: 'provisional' }),
    ];
    const { patterns: updated } = applyMerges(patterns, [{ keepId: 'p_a', mergeIds: ['p_b'] }]);
    expect(updated[0]?.status).toBe('provisional');
    expect(updated[0]?.lastFiredIteration).toBeUndefined();
  });

  it('skips groups whose patterns are not in the set', () => {
    const patterns = [pattern({ id: 'p_a' })];
    expect(
      applyMerges(patterns, [
        { keepId: 'p_a', mergeIds: ['p_zz'] },
        { keepId: 'p_zz', mergeIds: ['p_a'] },
      ]),
    ).toEqual({
      patterns,
      events: [],
    });
  });
});

describe('Function: mergeNearDuplicates', () => {
  it('finds and merges with the configured threshold', () => {
    // Prepare
    const patterns = [
      pattern({ id: 'p_a', keywords: FIVE }),
      pattern({ id: 'p_b', keywords: [...FIVE, 'blurry'] }),
    ];

    // Act
    const merged = mergeNearDuplicates(patterns, config);
    const stricter = mergeNearDuplicates(patterns, {
      patterns: { ...config.patterns, dedupeJaccardThreshold: 0.9 },
    });

    // Assess
    expect(merged.events).toEqual([{ type: 'merged_patterns', keptId: 'p_a', mergedIds: ['p_b'] }]);
    expect(stricter.events).toEqual([]);
  });
});
