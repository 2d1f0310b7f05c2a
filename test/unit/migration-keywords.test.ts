import { describe, expect, it } from 'vitest';
import {
  extractKeywords,
  MAX_KEYWORDS,
  namesIn,
  STOP_WORDS,
  tokenize,
} from '../../bin/cli/patterns-migration/keywords.js';

describe('Function: tokenize', () => {
  it('lower-cases and keeps letters, digits, - and _ together', () => {
    expect(tokenize('Pinterest OAuth2 token_refresh rate-limit (tack)!')).toEqual([
      'pinterest',
      'oauth2',
      'token_refresh',
      'rate-limit',
      'tack',
    ]);
  });

  it('keeps contractions whole, drops possessives and stray separators', () => {
    expect(tokenize("Don't break tack's -flow- __init__")).toEqual([
      "don't",
      'break',
      'tack',
      'flow',
      'init',
    ]);
    expect(tokenize('Don’t')).toEqual(["don't"]);
  });
});

describe('Function: extractKeywords', () => {
  it("reduces the design document's bad pattern to what it is about", () => {
    // Act
    const keywords = extractKeywords(
      'Do not group Pinterest OAuth with Facebook OAuth in same story',
    );

    // Assess
    expect(keywords).toEqual(['pinterest', 'oauth', 'facebook']);
  });

  it('drops stop words, scoping-advice words, pure numbers and tokens under three characters', () => {
    expect(extractKeywords('Keep it in 1 story: 2026 is ok, go team')).toEqual(['team']);
    for (const word of ['the', 'not', "don't", 'keep', 'together', 'story', 'never'])
      expect(STOP_WORDS.has(word), word).toBe(true);
  });

  it('removes duplicates, keeping the first occurrence order', () => {
    expect(extractKeywords('token refresh, TOKEN storage, Token refresh')).toEqual([
      'token',
      'refresh',
      'storage',
    ]);
  });

  it('keeps service and product names whatever their length, stop list or position, first', () => {
    // Prepare: "do" is a stop word and "ui" is short, but both are names here.
    const text = 'Split the analytics UI from the do service and aero';

    // Act
    const keywords = extractKeywords(text, { names: ['aero', 'do'] });

    // Assess
    expect(keywords).toEqual(['ui', 'do', 'aero', 'analytics', 'service']);
  });

  it('caps the count without ever cutting a name', () => {
    // Prepare
    const text = `${Array.from({ length: 20 }, (_, i) => `word${String.fromCharCode(97 + i)}`).join(' ')} tack`;

    // Act
    const capped = extractKeywords(text, { names: ['tack'] });
    const three = extractKeywords(text, { names: ['tack'], max: 3 });

    // Assess
    expect(capped).toHaveLength(MAX_KEYWORDS);
    expect(capped[0]).toBe('tack');
    expect(three).toEqual(['tack', 'worda', 'wordb']);
  });

  it('honours a custom minimum length', () => {
    expect(extractKeywords('api sdk oauth', { minLength: 4 })).toEqual(['oauth']);
  });

  it('finds nothing in text made only of stop words', () => {
    expect(extractKeywords('Do not do this in the same story')).toEqual([]);
    expect(extractKeywords('')).toEqual([]);
  });
});

describe('Function: namesIn', () => {
  it('returns the names that occur as whole tokens, once, in order', () => {
    expect(
      namesIn('They use different services (zuck vs tack, tack again)', ['tack', 'zuck', 'aero']),
    ).toEqual(['zuck', 'tack']);
    expect(namesIn('attack the tackle', ['tack'])).toEqual([]);
  });
});
