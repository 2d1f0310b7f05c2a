import { describe, expect, it } from 'vitest';
import { jaccard, sharedCount, tokenize } from '../../lambdas/core/shared/text.js';

describe('Function: tokenize', () => {
  it('keeps lower-cased content words and drops stop words', () => {
    // Act
    const tokens = tokenize('The Acceptance criteria are too VAGUE');

    // Assess
    expect([...tokens]).toEqual(['acceptance', 'criteria', 'vague']);
  });

  it('splits identifiers on underscores and punctuation', () => {
    expect([...tokenize('too_vague, kitchen-sink')]).toEqual(['vague', 'kitchen', 'sink']);
  });

  it('strips plurals but not words ending in ss, us or is', () => {
    expect([...tokenize('estimates dependencies')]).toEqual(['estimate', 'dependency']);
    expect([...tokenize('access status analysis')]).toEqual(['access', 'status', 'analysis']);
  });

  it('drops one-letter words and generic story words', () => {
    expect([...tokenize('a story is missing x')]).toEqual([]);
    expect([...tokenize('UI db')]).toEqual(['ui', 'db']);
  });
});

describe('Function: sharedCount', () => {
  it('counts the common elements', () => {
    expect(sharedCount(new Set(['a', 'b']), new Set(['b', 'c']))).toBe(1);
    expect(sharedCount(new Set(), new Set(['a']))).toBe(0);
  });
});

describe('Function: jaccard', () => {
  it('is the intersection over the union', () => {
    expect(jaccard(new Set(['a', 'b']), new Set(['b', 'c']))).toBeCloseTo(1 / 3, 12);
    expect(jaccard(new Set(['a', 'b']), new Set(['a', 'b']))).toBe(1);
    expect(jaccard(new Set(['a']), new Set(['b']))).toBe(0);
  });

  it('is 0 for two empty sets (nothing to call alike)', () => {
    expect(jaccard(new Set(), new Set())).toBe(0);
  });
});
