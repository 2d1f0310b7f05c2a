import { describe, expect, it } from 'vitest';
import { languageOf, languagesOf } from '../../lambdas/core/learning/registry/languages.js';
import { changedFiles, clip } from '../../lambdas/core/learning/registry/pattern-text.js';
import { commonestApproach } from '../../lambdas/core/learning/registry/extract-success.js';

describe('Function: languagesOf', () => {
  it('names the languages of code files, once each, and skips the rest', () => {
    expect(
      languagesOf([
        'src/a.ts',
        'web/App.TSX',
        'tools/b.py',
        'cmd/main.go',
        'README.md',
        'Makefile',
        '.env',
      ]),
    ).toEqual(['go', 'python', 'typescript']);
    expect(languageOf('src\\lib.rs')).toBe('rust');
  });
});

describe('Function: clip', () => {
  it('keeps short text and cuts long text on a word', () => {
    expect(clip('Add a null check', 20)).toBe('Add a null check');
    expect(clip('Add a null check before reading the property', 20)).toBe('Add a null check…');
    expect(clip('Add a null check before reading the property', 20).length).toBeLessThanOrEqual(20);
  });
});

describe('Function: changedFiles', () => {
  it('names at most the given number of files', () => {
    expect(changedFiles(['a.ts', 'b.ts'], 3)).toBe('a.ts, b.ts');
    expect(changedFiles(['a.ts', 'b.ts', 'c.ts', 'd.ts', 'e.ts'], 3)).toBe(
      'a.ts, b.ts, c.ts (+2 more)',
    );
  });
});

describe('Function: commonestApproach', () => {
  it('takes the most frequent report regardless of case, then the shortest, then A–Z', () => {
    expect(commonestApproach(['Wrote tests first', 'Refactored', 'wrote tests first'])).toBe(
      'Wrote tests first',
    );
    expect(commonestApproach(['Beta step', 'Alfa step', undefined])).toBe('Alfa step');
    expect(commonestApproach(['A longer step', 'Short step'])).toBe('Short step');
    expect(commonestApproach([undefined])).toBeUndefined();
  });
});
