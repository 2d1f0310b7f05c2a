/**
 * The structural markers: the only phrases made of function words and punctuation alone
 * that the miner may learn. A conjunction joining two features in a story's "I want" part
 * is the strongest single sign that the story is not atomic (QUS, Lucassen et al. 2016),
 * and brackets, example and list markers are the commonest sign that it is not minimal;
 * yet every one of them is a function word or punctuation, which a content phrase may not
 * start or end with. So they are listed here, each as the cheap mode will match it: a
 * keyword, fired where it is not glued to a word character on a side where the marker
 * itself starts or ends with one (`and` is not in `brand`, `(` is in `(IoT)`). No other
 * stopword-only phrase is ever a candidate: not `the`, not `of`, not `so that`.
 */
import { keywordSource } from '../../cheap/text.js';

export type MarkerRole = 'conjunction' | 'bracket' | 'example' | 'list';

export interface StructuralMarker {
  /** Lower-cased, as the pattern's keyword. */
  text: string;
  role: MarkerRole;
}

/** Every structural marker, by role. */
export const STRUCTURAL_MARKERS: readonly StructuralMarker[] = [
  ...['and', 'or', 'nor', 'and/or', '&', 'as well as'].map((text) => ({
    text,
    role: 'conjunction' as const,
  })),
  { text: '(', role: 'bracket' },
  ...['e.g.', 'i.e.', 'such as', 'for example'].map((text) => ({
    text,
    role: 'example' as const,
  })),
  ...['etc', 'and so on'].map((text) => ({ text, role: 'list' as const })),
];

const MATCHERS = STRUCTURAL_MARKERS.map((marker) => ({
  text: marker.text,
  matcher: new RegExp(keywordSource(marker.text), 'u'),
}));

const MARKER_TEXTS: ReadonlySet<string> = new Set(STRUCTURAL_MARKERS.map(({ text }) => text));

/**
 * Whether `phrase` is one of the structural markers.
 *
 * @example
 * isStructuralMarker('and/or'); // true
 * isStructuralMarker('the');    // false
 */
export function isStructuralMarker(phrase: string): boolean {
  return MARKER_TEXTS.has(phrase);
}

/**
 * The structural markers a lower-cased text holds, where the cheap mode would fire them.
 *
 * @example
 * textMarkers('i want to detect and respond (e.g. alerts)'); // ['and', '(', 'e.g.']
 */
export function textMarkers(lower: string): string[] {
  // The plain search first: most texts lack most markers, and it is far cheaper.
  return MATCHERS.filter(({ text, matcher }) => lower.includes(text) && matcher.test(lower)).map(
    ({ text }) => text,
  );
}
