/**
 * What makes two proposed patterns the same: a stable id derived from what the pattern
 * matches (so the model and the miner proposing one phrase produce one id, and a phrase
 * proposed again in a later iteration is recognised), and the exact-duplicate test
 * against the patterns a set already holds, whatever their status.
 */
import { patternTerms } from './lifecycle/dedupe.js';
import type { Pattern } from '../schemas/evaluation.js';
import { fnv1a } from '../shared/fnv.js';

const SLUG_CHARS = 32;

/**
 * Lower-cased, whitespace collapsed and trimmed: how the cheap mode and the dedupe read a
 * keyword or a phrase.
 *
 * @example
 * normaliseTerm('  Frustrated   When '); // 'frustrated when'
 */
export function normaliseTerm(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * The id of a learned pattern matching `what`: `p_`, an ASCII slug of it (when it has
 * one) and a hash of the whole of it. A keyword and a phrase of the same text share an id
 * (they are duplicates); a regex is hashed as a regex.
 *
 * @example
 * learnedPatternId({ term: 'Frustrated when' }); // 'p_frustrated_when_' + 8 hex digits
 * learnedPatternId({ regex: '\\bstuck\\b' });    // 'p_bstuck_b_' + 8 hex digits
 */
export function learnedPatternId(what: { term: string } | { regex: string }): string {
  const key = 'term' in what ? normaliseTerm(what.term) : `regex:${what.regex}`;
  const source = 'term' in what ? key : what.regex.toLowerCase();
  const slug = source
    .replace(/[^a-z0-9]+/g, '_')
    .slice(0, SLUG_CHARS)
    .replace(/^_+|_+$/g, '');
  return slug === '' ? `p_${fnv1a(key)}` : `p_${slug}_${fnv1a(key)}`;
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((item) => b.has(item));
}

/**
 * The existing pattern `candidate` duplicates (same id, or the same non-empty term set or
 * regex set), if any. Every status counts: a rejected pattern proposed again is still a
 * duplicate, and re-adding its id would break the set.
 *
 * @example
 * findExactDuplicate(candidate, set.patterns)?.id; // 'p_001'
 */
export function findExactDuplicate(
  candidate: Pattern,
  existing: readonly Pattern[],
): Pattern | undefined {
  const terms = patternTerms(candidate);
  const regexes = new Set(candidate.regexes);
  return existing.find(
    (pattern) =>
      pattern.id === candidate.id ||
      (terms.size > 0 && sameSet(terms, patternTerms(pattern))) ||
      (regexes.size > 0 && sameSet(regexes, new Set(pattern.regexes))),
  );
}

/**
 * The line a report uses for a duplicate.
 *
 * @example
 * duplicateReason(existing); // 'duplicates p_001 (active)'
 */
export function duplicateReason(existing: Pattern): string {
  return `duplicates ${existing.id} (${existing.status})`;
}
