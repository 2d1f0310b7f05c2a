/**
 * The registry's full-text retriever: BM25 (minisearch's BM25+) over what a pattern is
 * about, built once per snapshot and searched at each iteration's start with the task's
 * text and its last error signature. Both sides go through one tokenizer
 * (core/learning/search-terms.ts), so an error code or a lint rule in the query meets the
 * same whole term in the index.
 */
import MiniSearch from 'minisearch';
import { z } from 'zod';
import { distinctSearchTerms, searchTerms } from '../core/learning/search-terms.js';
import type { RegistryPattern } from '../core/schemas/learning.js';
import type {
  PatternRetriever,
  PatternRetrieverFactory,
  RetrievedPattern,
} from '../learning-ports.js';

const FIELDS = ['title', 'body', 'signature', 'issueClass', 'category', 'tags'] as const;
export type SearchField = (typeof FIELDS)[number];

/** What is indexed of a pattern; `id` is its position in the snapshot (ids repeat across scopes). */
type IndexedPattern = { id: number } & Record<SearchField, string>;

/**
 * The issue signature names the error itself and the title says in one line what the
 * pattern is about; the body is the longest field and mostly says what to do, so a term
 * found there counts least.
 */
export const FIELD_BOOSTS: Readonly<Record<SearchField, number>> = {
  signature: 3,
  title: 2,
  issueClass: 1.5,
  tags: 1.5,
  category: 1,
  body: 1,
};

/**
 * How a query is searched, chosen on the recall fixture and the bench (README, Development):
 * which of its terms are asked for, and whether a term also finds the longer words it
 * begins (`assign` finds `assignable`).
 */
export const RetrievalTuningSchema = z.strictObject({
  /**
   * A term found in more than this share of the patterns (and in more than
   * `minCommonCount`) is not asked for: it matches a large part of the registry, scores
   * little, and its long posting list is most of a search's time. On 10,000 patterns,
   * without the cut retrieval was slower than scanning every pattern, and the fixture's
   * recall among them lower (the task's common words drowned the error's): README,
   * Development.
   */
  maxTermShare: z.number().gt(0).max(1).default(0.02),
  minCommonCount: z.number().int().nonnegative().default(50),
  /** The rarest terms of a long query (a task's whole description) are enough. */
  maxQueryTerms: z.number().int().positive().default(24),
  /**
   * Prefix matches for terms of at least this length (0: none), at `prefixWeight` of an
   * exact match. Off: at 5 it found nothing more on the fixture and doubled search time.
   */
  prefixMinLength: z.number().int().nonnegative().default(0),
  prefixWeight: z.number().gt(0).max(1).default(0.3),
});
export type RetrievalTuning = z.infer<typeof RetrievalTuningSchema>;

/** What a pattern is about, by field: the text the retriever matches a query against. */
export const searchableFields = (pattern: RegistryPattern): Record<SearchField, string> => ({
  title: pattern.title,
  body: pattern.body,
  signature: pattern.issue?.signature ?? '',
  issueClass: pattern.issue?.class ?? '',
  category: pattern.category ?? '',
  tags: pattern.tags.join(' '),
});

/** Terms never contain a space: a field's terms are kept joined by one, and split again. */
const splitTerms = (text: string): string[] => (text === '' ? [] : text.split(' '));

/**
 * A retriever factory with the given tuning; {@link minisearchRetriever} is the default one.
 * Each pattern is tokenized once: its terms go to the index (joined, so the index's own
 * tokenizer only splits them again) and into the count of patterns each term occurs in.
 */
export function makeMinisearchRetriever(tuning: RetrievalTuning): PatternRetrieverFactory {
  return (patterns) => {
    const patternsWith = new Map<string, number>();
    const documents = patterns.map((pattern, id): IndexedPattern => {
      const fields = Object.entries(searchableFields(pattern)).map(
        ([field, text]) => [field, searchTerms(text)] as const,
      );
      for (const term of new Set(fields.flatMap(([, terms]) => terms))) {
        patternsWith.set(term, (patternsWith.get(term) ?? 0) + 1);
      }
      return {
        id,
        ...(Object.fromEntries(fields.map(([field, terms]) => [field, terms.join(' ')])) as Record<
          SearchField,
          string
        >),
      };
    });
    const index = new MiniSearch<IndexedPattern>({
      fields: [...FIELDS],
      tokenize: splitTerms,
      // The terms are lower case already, and what is not a term was dropped.
      processTerm: (term) => term,
      searchOptions: {
        boost: FIELD_BOOSTS,
        combineWith: 'OR',
        prefix: (term) => tuning.prefixMinLength > 0 && term.length >= tuning.prefixMinLength,
        weights: { prefix: tuning.prefixWeight, fuzzy: 0 },
        tokenize: splitTerms,
      },
    });
    index.addAll(documents);
    const common = Math.max(tuning.minCommonCount, tuning.maxTermShare * patterns.length);
    const askable = (terms: string[]): string[] =>
      terms
        .map((term) => ({ term, count: patternsWith.get(term) ?? 0 }))
        .filter(({ count }) => count <= common && (count > 0 || tuning.prefixMinLength > 0))
        .sort((a, b) => a.count - b.count)
        .slice(0, tuning.maxQueryTerms)
        .map(({ term }) => term);
    return new MinisearchRetriever(index, patterns, askable);
  };
}

/**
 * @example
 * const retriever = minisearchRetriever(snapshot.patterns);
 * retriever.search(`${task.title}\n${task.description}\n${lastErrorSignature}`, 5);
 * // [{ pattern: { patternId: 'ts2345-argument-type', ... }, score: 41.7 }, ...]
 */
export const minisearchRetriever: PatternRetrieverFactory = makeMinisearchRetriever(
  RetrievalTuningSchema.parse({}),
);

class MinisearchRetriever implements PatternRetriever {
  constructor(
    private readonly index: MiniSearch<IndexedPattern>,
    private readonly patterns: readonly RegistryPattern[],
    private readonly askable: (terms: string[]) => string[],
  ) {}

  search(query: string, limit: number): RetrievedPattern[] {
    const terms = this.askable(distinctSearchTerms(query));
    if (limit < 1 || terms.length === 0) return [];
    return this.index
      .search(terms.join(' '))
      .slice(0, limit)
      .map((result) => ({ pattern: this.patterns[result.id as number]!, score: result.score }));
  }
}
