/**
 * Keyword extraction for migrated patterns: the words a v1 narrative pattern is about, so the
 * cheap mode can match it against a story. No stemming, no dictionary, no model: lower-case
 * tokens, stop words out, names kept, first occurrence wins.
 */
import { FUNCTION_WORDS } from '../../../lambdas/core/shared/text.js';

function words(list: string): string[] {
  return list.trim().split(/\s+/);
}

/**
 * On top of the shared English function words: negations and contractions. A keyword names
 * what a story is about, and "cannot", "without" or "don't" never do; the miner keeps them
 * at a phrase's edge (`user cannot`), where they may be what tells a weak story.
 */
const NEGATIONS_AND_CONTRACTIONS = words(`
  cannot less otherwise without don't dont doesn't isn't aren't can't won't shouldn't versus
`);

/**
 * Words of scoping advice itself ("keep X together", "do not combine X with Y"): they describe
 * the rule, not the story, so matching them against a story would fire every pattern at once.
 */
const SCOPING_STOP_WORDS = words(`
  always apart avoid combine combined combining different ensure group grouped grouping
  include included including keep kept make mix mixed mixing never one put separate separately
  single split story stories together two use used using
`);

/** Every word {@link extractKeywords} drops (unless the caller names it in `names`). */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  ...FUNCTION_WORDS,
  ...NEGATIONS_AND_CONTRACTIONS,
  ...SCOPING_STOP_WORDS,
]);

/**
 * Short product and technology names that survive the minimum length (`s3`, `ui`, ...).
 * Service names come from the pattern file itself (its `service_insights`).
 */
export const SHORT_NAMES: ReadonlySet<string> = new Set(words('ai ci db fb ig ml qa s3 ui ux'));

/** Tokens shorter than this are dropped (names excepted). */
export const MIN_KEYWORD_LENGTH = 3;
/** The most keywords one pattern gets; names go first, so they are never the ones cut. */
export const MAX_KEYWORDS = 10;

export interface KeywordOptions {
  /**
   * Names that are always kept (never stop words, never too short) and put first: services,
   * repositories, products. Compared lower-case.
   */
  readonly names?: Iterable<string>;
  /** Cap on the number of keywords; default {@link MAX_KEYWORDS}. */
  readonly max?: number;
  /** Shortest ordinary keyword; default {@link MIN_KEYWORD_LENGTH}. */
  readonly minLength?: number;
}

/**
 * Lower-case tokens of letters, digits, `-` and `_` (an inner apostrophe is kept so "don't"
 * stays one stop word; a possessive "'s" is dropped), leading and trailing `-`/`_` trimmed.
 */
export function tokenize(text: string): string[] {
  const tokens =
    text
      .toLowerCase()
      .replace(/[\u2018\u2019]/g, "'")
      .match(/[\p{L}\p{N}][\p{L}\p{N}_'-]*/gu) ?? [];
  return tokens
    .map((token) => token.replace(/'s$/, '').replace(/^[-_']+|[-_']+$/g, ''))
    .filter((token) => token !== '');
}

/**
 * The keywords of `text`: lower-case tokens (letters, digits, `-`, `_`), stop words, pure
 * numbers and tokens shorter than `minLength` dropped, names kept whatever their length,
 * duplicates removed. Names come first, then the rest in order of first occurrence; at most
 * `max` are returned.
 *
 * @example
 * extractKeywords('Do not group Pinterest OAuth with Facebook OAuth in same story', {
 *   names: ['tack'],
 * });
 * // → ['pinterest', 'oauth', 'facebook']
 */
export function extractKeywords(text: string, options: KeywordOptions = {}): string[] {
  const names = new Set([...(options.names ?? []), ...SHORT_NAMES].map((n) => n.toLowerCase()));
  const max = options.max ?? MAX_KEYWORDS;
  const minLength = options.minLength ?? MIN_KEYWORD_LENGTH;
  const named: string[] = [];
  const plain: string[] = [];
  const seen = new Set<string>();
  for (const token of tokenize(text)) {
    if (seen.has(token)) continue;
    seen.add(token);
    if (names.has(token)) named.push(token);
    else if (token.length >= minLength && !STOP_WORDS.has(token) && !/^[\d_-]+$/.test(token))
      plain.push(token);
  }
  return [...named, ...plain].slice(0, Math.max(0, max));
}

/** The `names` that occur in `text` as whole tokens, in order of first occurrence. */
export function namesIn(text: string, names: Iterable<string>): string[] {
  const wanted = new Set([...names].map((name) => name.toLowerCase()));
  return [...new Set(tokenize(text).filter((token) => wanted.has(token)))];
}
