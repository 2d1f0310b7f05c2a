/**
 * The baseline the index is measured against: every pattern scored against the query by
 * term overlap, one pattern after another, with the same terms (core/learning/search-terms.ts)
 * and the same field boosts as the index. Each pattern's terms are worked out once, when the
 * retriever is built, as the index's are; a query then visits every pattern.
 */
import {
  FIELD_BOOSTS,
  searchableFields,
  type SearchField,
} from '../../lambdas/adapters/minisearch-retriever.js';
import { distinctSearchTerms, searchTerms } from '../../lambdas/core/learning/search-terms.js';
import type { RegistryPattern } from '../../lambdas/core/schemas/learning.js';
import type { PatternRetrieverFactory, RetrievedPattern } from '../../lambdas/learning-ports.js';

/** A term's weight in a pattern: the highest boost of the fields it occurs in. */
function termWeights(pattern: RegistryPattern): Map<string, number> {
  const weights = new Map<string, number>();
  for (const [field, text] of Object.entries(searchableFields(pattern))) {
    const boost = FIELD_BOOSTS[field as SearchField];
    for (const term of searchTerms(text)) {
      weights.set(term, Math.max(boost, weights.get(term) ?? 0));
    }
  }
  return weights;
}

/**
 * @example
 * linearScanRetriever(patterns).search('error TS2345: Argument of type ...', 5);
 */
export const linearScanRetriever: PatternRetrieverFactory = (patterns) => {
  const scanned = patterns.map((pattern) => ({ pattern, weights: termWeights(pattern) }));
  return {
    search(query: string, limit: number): RetrievedPattern[] {
      const terms = distinctSearchTerms(query);
      if (limit < 1 || terms.length === 0) return [];
      const scored: RetrievedPattern[] = [];
      for (const { pattern, weights } of scanned) {
        let score = 0;
        for (const term of terms) score += weights.get(term) ?? 0;
        if (score > 0) scored.push({ pattern, score });
      }
      return scored.sort((a, b) => b.score - a.score).slice(0, limit);
    },
  };
};
