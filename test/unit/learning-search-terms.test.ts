import { describe, expect, it } from 'vitest';
import { distinctSearchTerms, searchTerms } from '../../lambdas/core/learning/search-terms.js';

describe('Function: searchTerms', () => {
  it('splits camelCase and snake_case identifiers and keeps them whole too', () => {
    expect(searchTerms('toHaveBeenCalledWith parse_args')).toEqual([
      'tohavebeencalledwith',
      'called',
      'parse_args',
      'parse',
      'args',
    ]);
  });

  it('splits runs of capitals from the word after them', () => {
    expect(searchTerms('HTTPServer JSONParseError')).toEqual([
      'httpserver',
      'http',
      'server',
      'jsonparseerror',
      'json',
      'parse',
      'error',
    ]);
  });

  it.each([
    ['error TS2345: Argument', ['error', 'ts2345', 'argument']],
    ['E501 line too long', ['e501', 'line', 'long']],
    ['F401 PLR0913 SIM102', ['f401', 'plr0913', 'sim102']],
  ])('keeps the error codes of %j whole', (text, terms) => {
    expect(searchTerms(text)).toEqual(terms);
  });

  it('keeps a lint rule whole, without its plugin, and as words', () => {
    expect(searchTerms("'x' is defined but never used  no-unused-vars")).toEqual([
      'defined',
      'never',
      'used',
      'no-unused-vars',
      'no',
      'unused',
      'vars',
    ]);
    expect(searchTerms('@typescript-eslint/no-explicit-any')).toEqual([
      '@typescript-eslint/no-explicit-any',
      'no-explicit-any',
      'typescript',
      'eslint',
      'no',
      'explicit',
      'any',
    ]);
  });

  it("drops a placeless signature's placeholders", () => {
    expect(searchTerms('<file>:<line> error TS2304: Cannot find name <name>. after <n>ms')).toEqual(
      ['error', 'ts2304', 'cannot', 'find', 'name', 'ms'],
    );
  });

  it('splits paths into their names', () => {
    expect(searchTerms('lambdas/core/learning/issue-key.ts')).toEqual([
      'lambdas',
      'core',
      'learning',
      'issue',
      'key',
      'ts',
    ]);
  });

  it('drops stop words, single letters and short numbers, and keeps long numbers', () => {
    expect(searchTerms('E   a is of the 3 42 404 v18')).toEqual(['404', 'v18']);
  });

  it('keeps negations, which say what an error is', () => {
    expect(searchTerms("No module named 'shop' is not defined")).toEqual([
      'no',
      'module',
      'named',
      'shop',
      'not',
      'defined',
    ]);
  });

  it('has no terms for text without words', () => {
    expect(searchTerms('')).toEqual([]);
    expect(searchTerms(' -- :: <n> () ')).toEqual([]);
  });

  it('keeps repeats: how often a term occurs counts', () => {
    expect(searchTerms('null null check')).toEqual(['null', 'null', 'check']);
  });
});

describe('Function: distinctSearchTerms', () => {
  it('gives each term once, in first-seen order', () => {
    expect(distinctSearchTerms('null check null pointer check')).toEqual([
      'null',
      'check',
      'pointer',
    ]);
  });
});
