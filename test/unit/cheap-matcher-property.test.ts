import { describe, expect, it } from 'vitest';
import { compilePatternSet } from '../../lambdas/core/cheap/compile.js';
import { compileReferencePatterns } from '../../lambdas/core/cheap/reference-matcher.js';
import { evaluateCheap } from '../../lambdas/core/cheap/evaluate.js';
import { PatternSetSchema, type PatternSet } from '../../lambdas/core/schemas/evaluation.js';
import { makePattern, makeStory, storyArtefact } from '../support/evaluation.js';
import { seededRandom, pick, type Random } from '../support/seeded-random.js';

const some = <T>(random: Random, max: number, make: () => T): T[] =>
  Array.from({ length: Math.floor(random() * (max + 1)) }, make);

/** A small vocabulary, so that random patterns and texts meet often. */
const WORDS = ['ab', 'abc', 'log', 'login', 'bca', 'ca', 'c++', '.env', 'café', 'x1', 'ab-c'];
/** Text pieces: case, punctuation, digits, and the characters that make case mapping odd. */
const PIECES = [
  ...WORDS,
  'AB',
  'Log',
  'LOGIN',
  'CAFÉ',
  ' ',
  ' ',
  '  ',
  '\n',
  '-',
  '.',
  ',',
  '_',
  '7',
  '42',
  'ms',
  's',
  'TICKET-9',
  '\u212a', // Kelvin sign: lower-cases to "k", which /k/i does not match
  '\u0130', // İ: lower-cases to two code units
  '\u03a3', // Σ: lower-cases by context
  '😀',
  'e\u0301', // e + combining acute
  'ǅ',
];
/** Regex templates covering every path of the compiled matcher. */
const REGEXES: ((random: Random) => string)[] = [
  (random) => `\\b${pick(random, ['ab', 'log', 'ca'])}(?:s|in)?\\b`, // exact set, \b both ends
  (random) => `${pick(random, ['ab', 'bc'])}\\s+${pick(random, ['ca', 'log'])}`, // bounded literal
  () => 'as an? (?:ab|ca)', // exact set
  () => '\\b[A-Z]{2,}-\\d+\\b', // unbounded offset, prefix run
  () => '\\w+@\\w+', // unbounded offset, prefix run
  () => '(?:ab|c)+-\\d', // unbounded offset after a group: no prefix set
  () => '(?:a\\s*)bca', // a group of unbounded length before the literal
  () => '\\b\\d+\\s*(?:ms|s)\\b', // digits literal, \b before
  () => '\\babc\\w*', // literal after \b, then unbounded
  () => '[a-c]{3}', // no literal: gate
  () => '\\d\\d', // digits, bounded
  () => '(a|b)\\1', // backreference: ungated
  () => '(?<=ab)c', // lookbehind
  () => 'lo(?=gin)', // lookahead
  () => '^ab', // anchored
  () => 'ca$', // anchored
  () => '[^\\s]+\\.env', // negated class prefix
  () => 'x1|\\bc\\+\\+', // exact alternatives
  () => 'caf.', // dot
  () => 'k', // one letter
];

function randomSet(random: Random, size: number): PatternSet {
  const patterns = Array.from({ length: size }, (_, index) =>
    makePattern({
      id: `p_${index}`,
      type: random() < 0.5 ? 'good' : 'bad',
      keywords: some(random, 2, () => pick(random, WORDS)),
      phrases: some(random, 1, () => `${pick(random, WORDS)} ${pick(random, WORDS)}`),
      regexes: some(random, 1, () => pick(random, REGEXES)(random)),
    }),
  );
  return PatternSetSchema.parse({
    schemaVersion: '2.0',
    version: 1,
    createdAt: '2026-01-01T00:00:00Z',
    patterns,
  });
}

function randomText(random: Random): string {
  return Array.from({ length: 3 + Math.floor(random() * 30) }, () => pick(random, PIECES)).join(
    random() < 0.5 ? ' ' : '',
  );
}

describe('Property: the compiled matcher fires exactly the patterns the reference fires', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])('on random patterns and texts (seed %i)', (seed) => {
    // Prepare
    const random = seededRandom(seed);
    const set = randomSet(random, 40);
    const dense = compilePatternSet(set).documents.get('user_story')!;
    const sparse = compilePatternSet(set, { maxDenseCells: 0 }).documents.get('user_story')!;
    const reference = compileReferencePatterns(set).documents.get('user_story')!;

    for (let n = 0; n < 150; n += 1) {
      const text = randomText(random);
      const lower = text.toLowerCase();

      // Act
      const expected = [...reference.run(text, lower)];
      const fromDense = [...dense.run(text, lower)];
      const fromSparse = [...sparse.run(text, lower)];

      // Assess
      expect({ text, fired: fromDense }).toEqual({ text, fired: expected });
      expect({ text, fired: fromSparse }).toEqual({ text, fired: expected });
    }
  });

  it('gives the same whole results through evaluateCheap', () => {
    // Prepare
    const random = seededRandom(99);
    const set = randomSet(random, 60);
    const compiled = compilePatternSet(set);
    const reference = compileReferencePatterns(set);
    const artefacts = Array.from({ length: 100 }, (_, index) =>
      storyArtefact(
        makeStory({
          id: `story_${index}`,
          title: randomText(random),
          description: randomText(random),
          acceptance_criteria: some(random, 5, () => randomText(random)),
        }),
      ),
    );

    // Act
    const fast = artefacts.map((artefact) => evaluateCheap(artefact, compiled));
    const naive = artefacts.map((artefact) => evaluateCheap(artefact, reference));

    // Assess
    expect(fast).toEqual(naive);
    expect(fast.some((result) => result.patternsMatched.length > 0)).toBe(true);
  });
});
