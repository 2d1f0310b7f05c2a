import { describe, expect, it } from 'vitest';
import { compilePatternSet } from '../../lambdas/core/cheap/compile.js';
import { evaluateCheap } from '../../lambdas/core/cheap/evaluate.js';
import { planRegex } from '../../lambdas/core/cheap/regex-plan.js';
import { patternText } from '../../lambdas/core/patterns/artefact-text.js';
import {
  ANCHORED_FORMS,
  anchoredForm,
  textAnchoredKeys,
} from '../../lambdas/core/patterns/miner/anchored.js';
import {
  mineDiscriminativePhrases,
  type MinerResult,
  type MinerSample,
} from '../../lambdas/core/patterns/miner/log-odds.js';
import { textNgrams } from '../../lambdas/core/patterns/miner/ngrams.js';
import {
  STRUCTURAL_MARKERS,
  isStructuralMarker,
} from '../../lambdas/core/patterns/miner/structural-markers.js';
import { learnedPatternId } from '../../lambdas/core/patterns/pattern-identity.js';
import {
  DEFAULT_EVALUATION_CONFIG,
  resolveEvaluationConfig,
} from '../../lambdas/core/schemas/evaluation-config.js';
import { PatternSetSchema } from '../../lambdas/core/schemas/evaluation.js';
import { FUNCTION_WORDS } from '../../lambdas/core/shared/text.js';
import { makePattern, makeStory, storyArtefact } from '../support/evaluation.js';
import {
  ATOMIC_STORIES_WITHOUT_AND,
  ATOMIC_STORIES_WITH_AND,
  CONJUNCTION_STORIES,
  scored,
} from '../support/ustai-samples.js';

const NOW = new Date('2026-01-16T14:30:00Z');
const config = DEFAULT_EVALUATION_CONFIG;
const context = { existing: [], iteration: 5, now: NOW };
const AND_IN_MEANS = anchoredForm('and')!;
const HIGH = 4.5;
const LOW = 1.5;

/** Every candidate the miner reported: kept, then skipped. */
const reported = (result: MinerResult): string[] => [
  ...result.phrases.map((mined) => mined.phrase),
  ...result.skipped.map((skip) => skip.phrase),
];

/** Whether a reported candidate is made of function words and punctuation alone. */
const functionWordsOnly = (phrase: string): boolean =>
  phrase.split(/[^\p{L}\p{N}_]+/u).every((word) => word === '' || FUNCTION_WORDS.has(word));

/**
 * The UStAI sample: the judge scored the ten conjunction stories low and ten atomic ones
 * high, seven of which hold "and" (six in the "so that" part, one between two nouns).
 */
const conjunctionSample = (): MinerSample[] => [
  ...scored('low', CONJUNCTION_STORIES, LOW),
  ...scored('high', ATOMIC_STORIES_WITH_AND, HIGH),
  ...scored('plain', ATOMIC_STORIES_WITHOUT_AND.slice(0, 3), HIGH),
];

describe('Function: textNgrams (structural markers)', () => {
  it('keeps conjunctions, brackets, example and list markers as tokens', () => {
    // Act
    const ngrams = textNgrams('Import and/or export ledgers (e.g. CSV), etc.', 2);

    // Assess
    expect([...ngrams].filter(isStructuralMarker).sort()).toEqual([
      '(',
      'and',
      'and/or',
      'e.g.',
      'etc',
      'or',
    ]);
    expect(ngrams.has('import')).toBe(true);
    expect(ngrams.has('and export')).toBe(false);
  });

  it('finds a marker only where the cheap mode fires it as a keyword', () => {
    expect(textNgrams('Brand order forms', 3).has('and')).toBe(false);
    expect(textNgrams('Brand order forms', 3).has('or')).toBe(false);
    expect(textNgrams('Sensors (IoT) and AI', 1).has('(')).toBe(true);
    expect(textNgrams('Sensors (IoT) and AI', 1).has('and')).toBe(true);
  });

  it('proposes no function-word phrase but the listed markers', () => {
    // Act
    const ngrams = textNgrams(
      'The history of the ledger, so that it is kept as well as the rest of it.',
      3,
    );

    // Assess
    expect([...ngrams].filter(functionWordsOnly)).toEqual([]);
    expect(ngrams.has('as well as')).toBe(true);
    for (const word of ['the', 'of', 'of the', 'so that', 'it is'])
      expect(ngrams.has(word)).toBe(false);
  });
});

describe('Function: textAnchoredKeys', () => {
  it('anchors every conjunction, and each passes the cheap mode’s regex validation', () => {
    const conjunctions = STRUCTURAL_MARKERS.filter(({ role }) => role === 'conjunction');
    expect(ANCHORED_FORMS.map(({ marker }) => marker)).toEqual(
      conjunctions.map(({ text }) => text),
    );
    for (const form of ANCHORED_FORMS) expect(planRegex(form.source).ok).toBe(true);
  });

  it('fires on "and" in the "I want" part, not in the "so that" part', () => {
    const fires = (text: string) => textAnchoredKeys(text).includes(AND_IN_MEANS.key);
    expect(fires(CONJUNCTION_STORIES[1]!)).toBe(true);
    expect(fires(ATOMIC_STORIES_WITH_AND[1]!)).toBe(false);
    expect(fires(ATOMIC_STORIES_WITH_AND[2]!)).toBe(false);
    expect(fires('AS A USER, I WANT EXPORT AND IMPORT.')).toBe(true);
  });

  it('stops at the end of the sentence, a line break, and outside a story', () => {
    const fires = (text: string) => textAnchoredKeys(text).includes(AND_IN_MEANS.key);
    expect(fires('As a user, I want exports. Imports and refunds follow.')).toBe(false);
    expect(fires('As a user, I want exports\nImports and refunds')).toBe(false);
    expect(fires('Exports and imports')).toBe(false);
    expect(fires('As a user, I want exports (e.g. CSV and PDF)')).toBe(true);
    expect(fires('As a user, I want one export, i.e. CSV and PDF')).toBe(true);
  });
});

describe('Function: mineDiscriminativePhrases (structural markers)', () => {
  it('proposes "and" in the "I want" part when it separates better than "and" anywhere', () => {
    // Act
    const result = mineDiscriminativePhrases(conjunctionSample(), config, context);

    // Assess: "and" anywhere is in 7 of 10 high stories, too weak; in the means, in 1
    const anchored = result.phrases.find((mined) => mined.regex === AND_IN_MEANS.source);
    expect(anchored).toMatchObject({ type: 'bad', marker: 'and', highDocs: 1, lowDocs: 10 });
    expect(anchored!.z).toBeLessThan(-config.miner.zThreshold);
    expect(result.phrases.map((mined) => mined.phrase)).not.toContain('and');
    const pattern = result.patterns[result.phrases.indexOf(anchored!)];
    expect(pattern).toMatchObject({
      id: learnedPatternId({ regex: AND_IN_MEANS.source }),
      type: 'bad',
      keywords: [],
      phrases: [],
      regexes: [AND_IN_MEANS.source],
      source: 'log_odds_miner',
      status: 'provisional',
    });
    expect(pattern!.description).toContain('"and" in the "I want" part of a story');
  });

  it('proposes patterns the cheap mode compiles and fires exactly where they were counted', () => {
    // Prepare: the stories as user-story artefacts, mined on their pattern text
    const artefacts = conjunctionSample().map((sample) =>
      storyArtefact(
        makeStory({
          id: sample.artefactId,
          title: '',
          description: sample.text,
          acceptance_criteria: [],
          technical_area: null,
        }),
      ),
    );
    const samples = conjunctionSample().map((sample, i) => ({
      ...sample,
      text: patternText(artefacts[i]!),
    }));

    // Act
    const result = mineDiscriminativePhrases(samples, config, context);
    const compiled = compilePatternSet(
      PatternSetSchema.parse({
        schemaVersion: '2.0',
        version: 1,
        createdAt: NOW.toISOString(),
        patterns: result.patterns,
      }),
    );
    const matched = artefacts.map((artefact) => evaluateCheap(artefact, compiled).patternsMatched);

    // Assess
    expect(result.patterns.some((pattern) => pattern.regexes.length > 0)).toBe(true);
    result.patterns.forEach((pattern, i) => {
      const firedOn = artefacts.filter((_, k) => matched[k]!.includes(pattern.id));
      const mined = result.phrases[i]!;
      expect(firedOn.filter(({ id }) => id.startsWith('low')).length).toBe(mined.lowDocs);
      expect(firedOn.filter(({ id }) => !id.startsWith('low')).length).toBe(mined.highDocs);
    });
  });

  it('proposes the plain keyword when anchoring it separates no better', () => {
    // Prepare: no atomic story holds "and" at all
    const samples = [
      ...scored('low', CONJUNCTION_STORIES, LOW),
      ...scored('high', ATOMIC_STORIES_WITHOUT_AND, HIGH),
    ];

    // Act
    const result = mineDiscriminativePhrases(samples, config, context);

    // Assess
    expect(result.patterns).toContainEqual(
      expect.objectContaining({ type: 'bad', keywords: ['and'], regexes: [] }),
    );
    expect(result.skipped).toContainEqual({
      phrase: AND_IN_MEANS.key,
      z: expect.any(Number),
      reason: 'the same signal as "and" (found in the same artefacts)',
    });
  });

  it('does not propose "and" where it is spread evenly over high and low stories', () => {
    // Prepare: five conjunction and five atomic stories on each side
    const samples = [
      ...scored('high_conjunction', CONJUNCTION_STORIES.slice(0, 5), HIGH),
      ...scored('high_atomic', ATOMIC_STORIES_WITHOUT_AND.slice(0, 5), HIGH),
      ...scored('low_conjunction', CONJUNCTION_STORIES.slice(5), LOW),
      ...scored('low_atomic', ATOMIC_STORIES_WITHOUT_AND.slice(5), LOW),
    ];

    // Act
    const result = mineDiscriminativePhrases(samples, config, context);

    // Assess: neither form is even significant
    expect(reported(result)).not.toContain('and');
    expect(reported(result)).not.toContain(AND_IN_MEANS.key);
  });

  it('never proposes "the" or "of", however well they separate', () => {
    // Prepare: "the" and "of" planted in every high story; any z and support pass
    const samples = conjunctionSample().map((sample) =>
      sample.judgeScore === HIGH ? { ...sample, text: `Of the ${sample.text} Of the.` } : sample,
    );
    const anything = resolveEvaluationConfig({ miner: { zThreshold: 0, minSupport: 1 } });

    // Act
    const result = mineDiscriminativePhrases(samples, anything, context);

    // Assess
    expect(reported(result)).not.toContain('the');
    expect(reported(result)).not.toContain('of');
    expect(reported(result).filter(functionWordsOnly).every(isStructuralMarker)).toBe(true);
    expect(reported(result)).toContain('and');
  });

  it('skips the anchored form when a live pattern already fires on its marker', () => {
    // Prepare
    const existing = [makePattern({ id: 'p_and', type: 'bad', keywords: ['and'] })];

    // Act
    const result = mineDiscriminativePhrases(conjunctionSample(), config, {
      ...context,
      existing,
    });

    // Assess
    expect(result.patterns.flatMap((pattern) => pattern.regexes)).toEqual([]);
    expect(result.skipped).toContainEqual({
      phrase: AND_IN_MEANS.key,
      z: expect.any(Number),
      reason: 'is covered by p_and, which fires wherever it occurs',
    });
  });
});
