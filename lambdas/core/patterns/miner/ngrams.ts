/**
 * Word n-grams of an artefact's text, as candidate phrases for the miner. Each n-gram is
 * the lower-cased text itself, so that a mined phrase occurs literally where the cheap
 * mode will look for it:
 *
 * - words are runs of Unicode letters, marks, digits and `_` (the cheap mode's word
 *   characters, so a one-word n-gram fires as a keyword exactly where it was counted);
 * - an n-gram never spans anything but a single space between its words (no punctuation,
 *   no line break, no double space: the phrase could not be found there);
 * - it neither starts nor ends with a function word (`FUNCTION_WORDS`, shared/text.ts) or a
 *   word of one character or of digits only (`the export`, `export of`); such words may sit
 *   inside (`export to csv`).
 *
 * Besides, the structural markers the text holds (`and`, `and/or`, `(`, `e.g.`, `etc`:
 * `structural-markers.ts`), each a token of its own, punctuation included: the only
 * candidates made of function words and punctuation alone.
 */
import { WORD_CHAR_CLASS } from '../../cheap/text.js';
import { FUNCTION_WORDS } from '../../shared/text.js';
import { textMarkers } from './structural-markers.js';

const WORD = new RegExp(`${WORD_CHAR_CLASS}+`, 'gu');
const DIGITS = /^\p{N}+$/u;

interface Token {
  text: string;
  start: number;
  end: number;
}

const canEdge = (word: string): boolean =>
  [...word].length >= 2 && !DIGITS.test(word) && !FUNCTION_WORDS.has(word);

/**
 * The distinct n-grams (1 to `maxN` words) of a text, and its structural markers.
 *
 * @example
 * [...textNgrams('I am frustrated when exports fail and/or stall.', 2)];
 * // ['frustrated', 'exports', 'fail', 'exports fail', 'stall', 'and', 'or', 'and/or']
 */
export function textNgrams(text: string, maxN: number): Set<string> {
  const lower = text.toLowerCase();
  const tokens: Token[] = [...lower.matchAll(WORD)].map((match) => ({
    text: match[0],
    start: match.index,
    end: match.index + match[0].length,
  }));
  const ngrams = new Set<string>();
  tokens.forEach((first, i) => {
    if (!canEdge(first.text)) return;
    for (let n = 1; n <= maxN && i + n - 1 < tokens.length; n += 1) {
      const last = tokens[i + n - 1] as Token;
      const previous = n > 1 ? tokens[i + n - 2] : undefined;
      if (previous && (lower[previous.end] !== ' ' || last.start !== previous.end + 1)) break;
      if (canEdge(last.text)) ngrams.add(lower.slice(first.start, last.end));
    }
  });
  for (const marker of textMarkers(lower)) ngrams.add(marker);
  return ngrams;
}

/**
 * Whether `phrase` holds `part` as whole words (`export csv` holds `csv`, not `cs`).
 *
 * @example
 * containsWords('export to csv', 'to csv'); // true
 */
export function containsWords(phrase: string, part: string): boolean {
  return ` ${phrase} `.includes(` ${part} `);
}
