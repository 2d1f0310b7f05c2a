/**
 * Text helpers the offline judge and proposer share: quoting a phrase into their reasoning,
 * and finding words and phrases in the artefact's text.
 */
import { escapeRegExp } from '../../lambdas/core/cheap/text.js';
import { normaliseTerm } from '../../lambdas/core/patterns/pattern-identity.js';

/** Lower-cased, white space folded: how phrases are compared. */
export const normalise = normaliseTerm;

/**
 * A phrase in double quotes, stripped of what would confuse the reasoning's own syntax
 * (the proposer reads `name N/5 (notes with "quotes")` back).
 *
 * @example
 * quote('so (that)'); // '"so that"'
 */
export function quote(phrase: string): string {
  return `"${phrase
    .replace(/["()\n]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()}"`;
}

/** Every match of `pattern` in `text`, whether or not it has the `g` flag. */
export function allMatches(pattern: RegExp, text: string): string[] {
  return [
    ...text.matchAll(
      new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`),
    ),
  ].map((match) => match[0]);
}

export function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

/** Whether `needle` occurs in `haystack` as whole words (`haystack` already normalised). */
export function containsPhrase(haystack: string, needle: string): boolean {
  const words = normalise(needle);
  return new RegExp(`(?:^|[^a-z0-9])${escapeRegExp(words)}(?:[^a-z0-9]|$)`).test(haystack);
}

/** `text` cut to `limit` characters, the cut marked with an ellipsis. */
export function clipText(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}
