/**
 * Deterministic inputs (a seeded PRNG, so every run scores the same data): a pattern set
 * of N active patterns (realistic keywords and phrases from a user-story vocabulary, ~10%
 * with a regex) and a corpus of ~2 KB user stories: a story sentence as QUS reads it
 * (stories.ts) and acceptance criteria on one topic (a dozen domain terms among general
 * English, Zipf-distributed), with inflected forms that keywords must not match.
 */
import {
  PatternSetSchema,
  type Artefact,
  type Pattern,
  type PatternSet,
} from '../../lambdas/core/schemas/evaluation.js';
import { seededRandom, pick, type Random } from '../../test/support/seeded-random.js';
import { storySentence } from './stories.js';
import { GENERAL, GLUE, REPOS, ROLES, SUFFIXES, VERBS, WORDS } from './vocabulary.js';

const between = (random: Random, min: number, max: number): number =>
  min + Math.floor(random() * (max - min + 1));

/** Zipf over a shuffled vocabulary: a few words are everywhere, most are rare. */
export function zipf<T>(random: Random, words: readonly T[]): () => T {
  const order = [...words].sort(() => random() - 0.5);
  const cumulative: number[] = [];
  let total = 0;
  order.forEach((_, rank) => cumulative.push((total += 1 / (rank + 1))));
  return () => {
    const x = random() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return order[lo]!;
  };
}

const REGEX_TEMPLATES: ((random: Random) => string)[] = [
  (random) => `\\b${pick(random, WORDS)}(?:s|ed|ing)?\\b`,
  (random) => `${pick(random, WORDS)}\\s+(?:the\\s+)?${pick(random, WORDS)}`,
  (random) => `as an? ${pick(random, ROLES)}`,
  () => `\\b\\d+\\s*(?:ms|seconds?|minutes?)\\b`,
  () => `\\b[A-Z]{2,}-\\d+\\b`,
  (random) => `${pick(random, WORDS)}\\.(?:ts|py|js)\\b`,
  (random) => `(?:must|should) not ${pick(random, WORDS)}`,
  () => `https?://[^\\s]+`,
  () => `\\b(?:todo|fixme|tbd)\\b`,
  (random) => `(?:${pick(random, WORDS)}|${pick(random, WORDS)}) (?:page|screen|view)`,
];

export function makePatternSet(count: number, seed: number): PatternSet {
  const random = seededRandom(seed);
  const patterns: Partial<Pattern>[] = [];
  for (let i = 0; i < count; i += 1) {
    const keywords = Array.from({ length: between(random, 1, 3) }, () => {
      const word = pick(random, WORDS);
      // A third are compounds, as learned keywords often are ("pinterest oauth").
      return random() < 0.33 ? `${word} ${pick(random, WORDS)}` : word;
    });
    const phrases = Array.from(
      { length: between(random, 0, 2) },
      () => `${pick(random, GLUE)} ${pick(random, WORDS)}`,
    );
    const regexes = random() < 0.1 ? [pick(random, REGEX_TEMPLATES)(random)] : [];
    patterns.push({
      id: `p_${String(i).padStart(4, '0')}`,
      type: random() < 0.6 ? 'good' : 'bad',
      description: `generated pattern ${i}`,
      keywords,
      phrases,
      regexes,
      weight: Math.round((0.2 + random() * 1.8) * 10) / 10,
      source: 'bench',
      discoveredAt: '2026-01-16T12:00:00Z',
      status: 'active',
    });
  }
  return PatternSetSchema.parse({
    schemaVersion: '2.0',
    version: 1,
    createdAt: '2026-01-16T12:00:00Z',
    patterns,
    techValidation: { validRepoPaths: REPOS },
  });
}

export function makeDocuments(count: number, seed: number): Artefact[] {
  const random = seededRandom(seed);
  const filler = zipf(random, GENERAL);
  return Array.from({ length: count }, (_, i): Artefact => {
    // A story is about one area: a dozen domain terms, among general English.
    const topic = Array.from({ length: 12 }, () => pick(random, WORDS));
    const term = zipf(random, topic);
    const word = (): string => {
      const base = random() < 0.25 ? term() : filler();
      // Inflected forms ("exports", "exported") that a keyword "export" must not match.
      return random() < 0.15 ? `${base}${pick(random, SUFFIXES)}` : base;
    };
    const clause = (length: number): string =>
      Array.from({ length }, () => (random() < 0.15 ? pick(random, GLUE) : word())).join(' ');
    const extra = (): string =>
      random() < 0.1
        ? ` See TICKET-${between(random, 10, 9999)} (${between(random, 50, 900)} ms).`
        : '';
    const repo = pick(random, Object.keys(REPOS));
    return {
      kind: 'document',
      id: `story-${i}`,
      documentType: 'user_story',
      content: {
        id: `story-${i}`,
        title: `${random() < 0.8 ? pick(random, VERBS) : 'The'} ${clause(between(random, 3, 9))}`,
        // The story's sentence, as QUS reads it; the rest of its ~2 KB is in the criteria.
        description: storySentence(random),
        acceptance_criteria: Array.from(
          { length: between(random, 4, 10) },
          () =>
            `Given ${clause(between(random, 8, 14))} when ${clause(between(random, 8, 14))} then ${clause(between(random, 10, 16))}.${extra()}`,
        ),
        technical_area:
          random() < 0.7
            ? `${repo} ${pick(random, REPOS[repo]!)}${term()}/${term()}.ts`
            : clause(3),
        services: [repo],
        source_conversations: [],
      },
    };
  });
}
