import { describe, expect, it } from 'vitest';
import {
  codePointBefore,
  codePointFrom,
  codePointLength,
  escapeRegExp,
  hasLoneSurrogate,
  isWordCodePoint,
} from '../../lambdas/core/cheap/text.js';

describe('Function: isWordCodePoint', () => {
  it.each([
    ['a', true],
    ['Z', true],
    ['7', true],
    ['_', true],
    ['é', true],
    ['\u0301', true], // combining mark
    ['٣', true], // Arabic-Indic digit
    ['-', false],
    [' ', false],
    ['😀', false],
  ])('%j is a word character: %s', (char, expected) => {
    expect(isWordCodePoint(char.codePointAt(0)!)).toBe(expected);
  });

  it('treats "outside the text" (-1) as not a word character', () => {
    expect(isWordCodePoint(-1)).toBe(false);
  });
});

describe('Function: codePointBefore / codePointFrom', () => {
  it('reads a surrogate pair as one code point, in both directions', () => {
    // Prepare
    const text = 'a😀b';

    // Act, Assess
    expect(codePointBefore(text, 3)).toBe(0x1f600);
    expect(codePointFrom(text, 1)).toBe(0x1f600);
    expect(codePointBefore(text, 0)).toBe(-1);
    expect(codePointFrom(text, 4)).toBe(-1);
  });
});

describe('Function: codePointLength', () => {
  it('counts as Python len() does', () => {
    expect(codePointLength('abc')).toBe(3);
    expect(codePointLength('a😀')).toBe(2);
    expect(codePointLength('\ud83d')).toBe(1); // a lone surrogate is one
  });
});

describe('Function: hasLoneSurrogate', () => {
  it('finds half a pair, and accepts whole pairs', () => {
    expect(hasLoneSurrogate('ok 😀')).toBe(false);
    expect(hasLoneSurrogate('\ud83d')).toBe(true);
    expect(hasLoneSurrogate('\ude00x')).toBe(true);
  });
});

describe('Function: escapeRegExp', () => {
  it('makes every syntax character literal, with or without the u flag', () => {
    // Prepare
    const text = 'a.b*c+d?e^f$g{h}i(j)k|l[m]n\\o/p';

    // Act
    const source = escapeRegExp(text);

    // Assess
    expect(new RegExp(`^${source}$`).test(text)).toBe(true);
    expect(new RegExp(`^${source}$`, 'u').test(text)).toBe(true);
  });
});
