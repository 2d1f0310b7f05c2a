/**
 * Character-level helpers shared by the compiled matcher and the reference matcher, so
 * that both read "word character" and "length" the same way.
 */

/**
 * A word character: a letter, a combining mark, a number or `_`, in Unicode. A keyword
 * must not be glued to one on a side where the keyword itself starts or ends with one.
 */
export const WORD_CHAR_CLASS = '[\\p{L}\\p{M}\\p{N}_]';

const WORD_CHAR = new RegExp(`^${WORD_CHAR_CLASS}$`, 'u');
const ASCII_WORD = new Uint8Array(128);
for (let c = 0; c < 128; c += 1) ASCII_WORD[c] = WORD_CHAR.test(String.fromCharCode(c)) ? 1 : 0;

/**
 * Whether a code point is a word character; `-1` (outside the text) is not.
 *
 * @example
 * isWordCodePoint(0x61) // true ('a')
 * isWordCodePoint(0x2d) // false ('-')
 */
export function isWordCodePoint(codePoint: number): boolean {
  if (codePoint < 0) return false;
  if (codePoint < 128) return ASCII_WORD[codePoint] === 1;
  return WORD_CHAR.test(String.fromCodePoint(codePoint));
}

const isHigh = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff;

/**
 * The code point that ends just before `index` (a surrogate pair counts as one), or `-1`
 * at the start: what a `u`-mode lookbehind sees.
 *
 * @example
 * codePointBefore('a😀b', 3) // 0x1f600
 */
export function codePointBefore(text: string, index: number): number {
  if (index <= 0) return -1;
  const unit = text.charCodeAt(index - 1);
  if (isLow(unit) && index >= 2) {
    const high = text.charCodeAt(index - 2);
    if (isHigh(high)) return (high - 0xd800) * 0x400 + (unit - 0xdc00) + 0x10000;
  }
  return unit;
}

/**
 * The code point that starts at `index`, or `-1` at the end: what a `u`-mode lookahead sees.
 *
 * @example
 * codePointFrom('ab', 2) // -1
 */
export function codePointFrom(text: string, index: number): number {
  return index >= text.length ? -1 : (text.codePointAt(index) ?? -1);
}

/**
 * The length in code points, as Python's `len(str)` counts it (the design's numbers are
 * Python lengths): a surrogate pair is one, a lone surrogate is one.
 *
 * @example
 * codePointLength('a😀') // 2
 */
export function codePointLength(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length - 1; i += 1) {
    if (isHigh(text.charCodeAt(i)) && isLow(text.charCodeAt(i + 1))) {
      length -= 1;
      i += 1;
    }
  }
  return length;
}

/**
 * Whether the text holds a surrogate without its partner: such a keyword could match half
 * a character, so it is refused.
 *
 * @example
 * hasLoneSurrogate('\ud83d') // true
 */
export function hasLoneSurrogate(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    if (isHigh(unit)) {
      if (!isLow(text.charCodeAt(i + 1))) return true;
      i += 1;
    } else if (isLow(unit)) return true;
  }
  return false;
}

/**
 * Escapes a string for use as a literal in a regular expression (valid with or without `u`).
 *
 * @example
 * new RegExp(escapeRegExp('a.b')).test('axb') // false
 */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * Whether the code unit at `index` is `\w` as a regex without the `u` flag reads it (what
 * `\b` tests in a user regex); outside the text, it is not.
 *
 * @example
 * isAsciiWord('é1', 0) // false
 */
export function isAsciiWord(text: string, index: number): boolean {
  const c = text.charCodeAt(index); // NaN outside the text
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

/**
 * A keyword as a `u`-mode regex over the lower-cased text: the keyword, not glued to a
 * word character on a side where the keyword itself starts or ends with one (`log` is not
 * in `logging`, `c++` is in `use c++ here`). The reference matcher's definition, shared
 * with the miner so that a mined keyword is counted exactly where it will fire.
 *
 * @example
 * new RegExp(keywordSource('and'), 'u').test('brand'); // false
 */
export function keywordSource(keyword: string): string {
  const lower = keyword.toLowerCase();
  const before = isWordCodePoint(lower.codePointAt(0) ?? -1) ? `(?<!${WORD_CHAR_CLASS})` : '';
  const after = isWordCodePoint(codePointBefore(lower, lower.length))
    ? `(?!${WORD_CHAR_CLASS})`
    : '';
  return `${before}${escapeRegExp(lower)}${after}`;
}
