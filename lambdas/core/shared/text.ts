/**
 * Words, for the analyses that compare texts by their words. Two lists of words to leave
 * out, because they answer two different questions (each named for its question):
 *
 * - {@link FUNCTION_WORDS}: English function words, which say nothing on their own. A mined
 *   phrase never starts or ends with one (`patterns/miner/ngrams.ts`), unless it is one of
 *   the listed structural markers (`and`, `or`, `e.g.`: `patterns/miner/structural-markers.ts`),
 *   and a migrated pattern's keywords never are one (the CLI's v1 migration adds its own few
 *   on top).
 * - {@link WEAKNESS_STOP_WORDS}: the words pattern coverage ignores when it matches a judge
 *   weakness with a cheap signal (`tokenize`): the words every weakness is made of
 *   (`missing`, `lacks`, `unclear`, `story`) and only the commonest function words.
 *   Quantifiers and order words (`only`, `each`, `every`, `before`, `same`) stay tokens:
 *   a weakness turns on them (`only one criterion`, `each step`).
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

/**
 * Words that carry no signal about a weakness (coverage's matching). Coverage tokens are
 * lower-cased alphanumeric words of two or more characters (`too_vague` → `too`, `vague`),
 * these words dropped (`too`), then a plural stripped (`estimates` → `estimate`,
 * `dependencies` → `dependency`).
 */
export const WEAKNESS_STOP_WORDS: ReadonlySet<string> = new Set(
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
 * The content tokens of a text, as coverage matches them (see {@link WEAKNESS_STOP_WORDS}).
 *
 * @example
 * tokenize('Acceptance criteria are too vague'); // Set { 'acceptance', 'criteria', 'vague' }
 */
export function tokenize(text: string): Set<string> {
  const tokens = new Set<string>();
  for (const word of text.toLowerCase().split(/[^a-z0-9]+/)) {
    if (word.length < 2 || WEAKNESS_STOP_WORDS.has(word)) continue;
    const stemmed = stem(word);
    if (!WEAKNESS_STOP_WORDS.has(stemmed)) tokens.add(stemmed);
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
