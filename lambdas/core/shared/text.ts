/**
 * Word-level matching for pattern coverage: lower-cased alphanumeric words of two or more
 * characters (`too_vague` → `too`, `vague`), stop words dropped (`too`), then a plural
 * stripped (`estimates` → `estimate`, `dependencies` → `dependency`).
 */

/** Words that carry no signal about a weakness. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  [
    'a an and are as at be been being but by can could do does for from has have if in ',
    'into is it its may might more most must no nor not of on one or should so some such ',
    'than that the their them then there these they this those to too very was were what ',
    'when which while who will with would story stories lack lacks missing without clear ',
    'unclear well any all',
  ]
    .join('')
    .split(' '),
);

function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/**
 * The content tokens of a text.
 *
 * @example
 * tokenize('Acceptance criteria are too vague'); // Set { 'acceptance', 'criteria', 'vague' }
 */
export function tokenize(text: string): Set<string> {
  const tokens = new Set<string>();
  for (const word of text.toLowerCase().split(/[^a-z0-9]+/)) {
    if (word.length < 2 || STOP_WORDS.has(word)) continue;
    const stemmed = stem(word);
    if (!STOP_WORDS.has(stemmed)) tokens.add(stemmed);
  }
  return tokens;
}

/**
 * How many elements two sets share.
 *
 * @example
 * sharedCount(new Set(['a', 'b']), new Set(['b', 'c'])); // 1
 */
export function sharedCount(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const item of a) if (b.has(item)) shared += 1;
  return shared;
}

/**
 * Jaccard similarity |A ∩ B| / |A ∪ B|; two empty sets are 0 (nothing to call alike).
 *
 * @example
 * jaccard(new Set(['a', 'b']), new Set(['b', 'c'])); // 1 / 3
 */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  const shared = sharedCount(a, b);
  const union = a.size + b.size - shared;
  return union === 0 ? 0 : shared / union;
}
