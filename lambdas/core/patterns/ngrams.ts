/**
 * Word n-grams of an artefact's text, as candidate phrases for the miner. Each n-gram is
 * the lower-cased text itself, so that a mined phrase occurs literally where the cheap
 * mode will look for it:
 *
 * - words are runs of Unicode letters, marks, digits and `_` (the cheap mode's word
 *   characters, so a one-word n-gram fires as a keyword exactly where it was counted);
 * - an n-gram never spans anything but a single space between its words (no punctuation,
 *   no line break, no double space: the phrase could not be found there);
 * - it neither starts nor ends with a function word or a word of one character or of
 *   digits only (`the export`, `export of`); such words may sit inside (`export to csv`).
 */

/** English function words: they say nothing on their own, at either end of a phrase. */
export const FUNCTION_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against all also am an and any are as at be because been before
  being below between both but by can could did do does doing done down during each either
  else even ever every few for from further had has have having he her here hers him his how
  however i if in into is it its itself just like may me might more most much must my
  neither no nor not now of off often on once only or other our ours out over own rather
  same shall she should since so some such than that the their theirs them then there these
  they this those though through thus to too under until up upon us very via was we were
  what when where whether which while who whom whose why will with within would yet you your
  yours etc eg ie vs`
    .trim()
    .split(/\s+/),
);

const WORD = /[\p{L}\p{M}\p{N}_]+/gu;
const DIGITS = /^\p{N}+$/u;

interface Token {
  text: string;
  start: number;
  end: number;
}

const canEdge = (word: string): boolean =>
  [...word].length >= 2 && !DIGITS.test(word) && !FUNCTION_WORDS.has(word);

/**
 * The distinct n-grams (1 to `maxN` words) of a text.
 *
 * @example
 * [...textNgrams('I am frustrated when exports fail.', 2)];
 * // ['frustrated', 'exports', 'fail', 'exports fail']
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
