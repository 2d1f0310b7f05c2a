import { describe, expect, it } from 'vitest';
import {
  FUNCTION_WORDS,
  WEAKNESS_STOP_WORDS,
  jaccard,
  sharedCount,
  tokenize,
} from '../../lambdas/core/shared/text.js';
import { STOP_WORDS as KEYWORD_STOP_WORDS } from '../../bin/cli/patterns-migration/keywords.js';

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

  it('keeps the quantifiers and order words a weakness turns on', () => {
    expect([...tokenize('only one criterion before each step')]).toEqual([
      'only',
      'criterion',
      'before',
      'each',
      'step',
    ]);
  });
});

describe('Constant: FUNCTION_WORDS', () => {
  it('is one list: every keyword stop word of the v1 migration builds on it', () => {
    // Act
    const missing = [...FUNCTION_WORDS].filter((word) => !KEYWORD_STOP_WORDS.has(word));

    // Assess
    expect(missing).toEqual([]);
    expect(FUNCTION_WORDS.has('the')).toBe(true);
    expect(FUNCTION_WORDS.has('missing')).toBe(false);
  });

  it('differs from the weakness stop words, which drop the words of every weakness', () => {
    expect(WEAKNESS_STOP_WORDS.has('missing')).toBe(true);
    expect(FUNCTION_WORDS.has('only')).toBe(true);
    expect(WEAKNESS_STOP_WORDS.has('only')).toBe(false);
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
