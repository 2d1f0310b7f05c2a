import { describe, expect, it } from 'vitest';
import { compilePatternSet } from '../../lambdas/core/cheap/compile.js';
import { compileReferencePatterns } from '../../lambdas/core/cheap/reference-matcher.js';
import { PatternSetSchema, type Pattern } from '../../lambdas/core/schemas/evaluation.js';
import { makePattern } from '../support/evaluation.js';

type Matching = Pick<Pattern, 'keywords' | 'phrases' | 'regexes'>;

/** Whether one pattern fires on `text`, through the compiled and the reference matcher. */
function fires(
  matching: Partial<Matching>,
  text: string,
): { compiled: boolean; reference: boolean } {
  const set = PatternSetSchema.parse({
    schemaVersion: '2.0',
    version: 1,
    createdAt: '2026-01-01T00:00:00Z',
    patterns: [makePattern({ id: 'p_x', ...matching })],
  });
  const lower = text.toLowerCase();
  const run = (compiled: ReturnType<typeof compilePatternSet>) =>
    compiled.documents.get('user_story')!.run(text, lower).length === 1;
  return { compiled: run(compilePatternSet(set)), reference: run(compileReferencePatterns(set)) };
}

/** Asserts both matchers agree with `expected`. */
function expectFires(matching: Partial<Matching>, text: string, expected: boolean): void {
  expect(fires(matching, text)).toEqual({ compiled: expected, reference: expected });
}

describe('Function: createCompiledMatcher (through compilePatternSet)', () => {
  describe('keywords', () => {
    it.each([
      ['log', 'write a log entry', true],
      ['log', 'log', true],
      ['log', 'the login page', false],
      ['log', 'the catalog page', false],
      ['log', 'log_file', false],
      ['log', 'log-file', true],
      ['log', 'log1', false],
      ['log', '(log)', true],
      ['log', 'café log', true],
      ['log', 'élog', false],
      ['log', 'loǵ', false], // a combining mark glues a letter to the word
      ['log', '😀log😀', true],
      ['c++', 'we use c++ here', true],
      ['c++', 'abc++', false],
      ['c++', 'c++11', true], // the keyword ends with '+': no boundary needed after it
      ['.env', 'load the .env file', true],
      ['.env', 'foo.env', true], // starts with '.': no boundary needed before it
      ['.env', '.envrc', false],
      ['pinterest oauth', 'Pinterest OAuth only', true],
      ['pinterest oauth', 'pinterest  oauth', false],
    ])('keyword %j in %j fires: %s', (keyword, text, expected) => {
      // Prepare, Act, Assess
      expectFires({ keywords: [keyword] }, text, expected);
    });

    it('matches case-insensitively, whatever the case of keyword or text', () => {
      expectFires({ keywords: ['OAuth'] }, 'add oauth login', true);
      expectFires({ keywords: ['oauth'] }, 'ADD OAUTH LOGIN', true);
    });

    it('reads the lower-cased text: the Kelvin sign is a "k" there', () => {
      expectFires({ keywords: ['kit'] }, 'the \u212Ait', true);
    });
  });

  describe('phrases', () => {
    it.each([
      ['user can', 'so the user can export', true],
      ['user can', 'the user cannot', true], // a substring, as the design's value phrases
      ['user can', 'the User Can', true],
      ['user can', 'user  can', false],
      ['frustrated when', 'is frustrated when it fails', true],
    ])('phrase %j in %j fires: %s', (phrase, text, expected) => {
      expectFires({ phrases: [phrase] }, text, expected);
    });
  });

  describe('regexes', () => {
    it.each([
      ['\\bas an? \\w+', 'As an admin, I want', true],
      ['\\bas an? \\w+', 'has a way', false],
      ['\\b(?:todo|fixme)\\b', 'a TODO item', true],
      ['\\b(?:todo|fixme)\\b', 'todos', false],
      ['\\border(?:s|ed)?\\b', 'all orders', true],
      ['\\border(?:s|ed)?\\b', 'a border', false],
      ['\\b[A-Z]{2,}-\\d+\\b', 'see TICKET-123 now', true],
      ['\\b[A-Z]{2,}-\\d+\\b', 'sign-in', false],
      ['\\w+@\\w+\\.com', 'mail me@example.com', true],
      ['\\d+\\s*ms', 'it takes 250 ms', true],
      ['\\d+\\s*ms', 'it takes a while', false],
      ['[a-c]{3}', 'abc', true],
      ['(a|b)\\1', 'xaay', true],
      ['(a|b)\\1', 'xaby', false],
      ['(?<=my )token', 'rotate my token', true],
      ['(?<=my )token', 'rotate the token', false],
      ['^add', 'Add export', true],
      ['^add', 'then add export', false],
    ])('regex /%s/i on %j fires: %s', (regex, text, expected) => {
      expectFires({ regexes: [regex] }, text, expected);
    });

    it('fires on the original text: the Kelvin sign is not a "k" for /k/i', () => {
      expectFires({ regexes: ['\\bkit\\b'] }, 'the \u212Ait', false);
      expectFires({ regexes: ['\\bkit\\b'] }, 'the Kit', true);
    });

    it('still finds a match after a text whose case mapping changes its length (İ)', () => {
      expectFires({ regexes: ['as an? admin'] }, '\u0130 as an admin', true);
      expectFires({ keywords: ['admin'] }, '\u0130 admin', true);
    });

    it('a failed search for one literal does not settle the regex for its other literals', () => {
      // "#1" is found first; no match starts in its run of letters or after it, but the
      // other alternative matches from the very start, through "%2".
      expectFires({ regexes: ['[a-z]+#1(?:z)|q[^%]*%2'] }, 'q-abcdefghijkl#1 %2', true);
    });

    it('finds every regex of a gate, also where an earlier alternative matches first', () => {
      // Both literal-less regexes match at the same place; the gate reports the first.
      const set = PatternSetSchema.parse({
        schemaVersion: '2.0',
        version: 1,
        createdAt: '2026-01-01T00:00:00Z',
        patterns: [
          makePattern({ id: 'p_a', regexes: ['[a-c]{2}'] }),
          makePattern({ id: 'p_b', regexes: ['[a-c]{3}'] }),
          makePattern({ id: 'p_c', regexes: ['[x-z]\\d'] }),
        ],
      });
      const matcher = compilePatternSet(set).documents.get('user_story')!;

      // Act
      const fired = [...matcher.run('abc', 'abc')];

      // Assess
      expect(fired).toEqual([0, 1]);
    });
  });

  it('fires a pattern once, whichever of its keywords, phrases and regexes hit', () => {
    // Prepare
    const set = PatternSetSchema.parse({
      schemaVersion: '2.0',
      version: 1,
      createdAt: '2026-01-01T00:00:00Z',
      patterns: [
        makePattern({
          id: 'p_a',
          keywords: ['export', 'csv'],
          phrases: ['as csv'],
          regexes: ['csv'],
        }),
        makePattern({ id: 'p_b', keywords: ['export'] }), // shares a keyword with p_a
        makePattern({ id: 'p_c', keywords: ['import'] }),
      ],
    });
    const matcher = compilePatternSet(set).documents.get('user_story')!;
    const text = 'Export invoices as CSV, export again';

    // Act
    const fired = [...matcher.run(text, text.toLowerCase())];

    // Assess
    expect(fired).toEqual([0, 1]);
    expect(matcher.ids).toEqual(['p_a', 'p_b', 'p_c']);
  });

  it('keeps no state from one run to the next', () => {
    // Prepare
    const set = PatternSetSchema.parse({
      schemaVersion: '2.0',
      version: 1,
      createdAt: '2026-01-01T00:00:00Z',
      patterns: [makePattern({ id: 'p_a', keywords: ['export'], regexes: ['\\d+ ms'] })],
    });
    const matcher = compilePatternSet(set).documents.get('user_story')!;

    // Act
    const first = [...matcher.run('export', 'export')];
    const second = [...matcher.run('import', 'import')];
    const third = [...matcher.run('took 5 ms', 'took 5 ms')];

    // Assess
    expect([first, second, third]).toEqual([[0], [], [0]]);
  });
});
