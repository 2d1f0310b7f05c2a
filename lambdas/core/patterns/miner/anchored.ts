/**
 * Conjunctions anchored to the means of a Connextra story ("As a <role>, I want <means>,
 * so that <ends>"). "And" joining two features in the means is what makes a story not
 * atomic (QUS); "and" joining two benefits in the ends is harmless, and common in good
 * stories. So each conjunction marker has a second, anchored form: a regex that fires when
 * the marker follows "I want", "I need" or "I would like" before the means ends. The
 * means ends at the ends' "so" (`so that`, `so I can`), a full stop followed by a space
 * (not the one of `e.g.` or `i.e.`), or a line break.
 *
 * The miner counts both forms with the same log-odds test and proposes the better one.
 * Each form is checked once, here, with the cheap mode's own regex validation
 * (`planRegex`: syntax, length, empty match, nested quantifiers); a form it refuses is
 * never counted, so it is never proposed. The regex runs as the cheap mode runs it: on the
 * original text, case-insensitively.
 */
import { planRegex } from '../../cheap/regex-plan.js';
import { escapeRegExp } from '../../cheap/text.js';
import { STRUCTURAL_MARKERS } from './structural-markers.js';

/** Where the means starts. */
const MEANS_START = String.raw`\bI (?:want|need|would like)\b`;
const HAS_MEANS = new RegExp(MEANS_START, 'i');
/**
 * Any characters of the means, as few as possible: never past its end (the ends' `so`, a
 * line break, or a full stop and a space that do not close `e.g.` or `i.e.`).
 */
const WITHIN_MEANS = String.raw`(?:(?!\bso\b|(?<!\b(?:e\.g|i\.e))\.\s)[^\n])*?`;

export interface AnchoredForm {
  /** The structural marker it anchors. */
  marker: string;
  /** The regex source, as the pattern will hold it. */
  source: string;
  /** `/source/`: how the miner and the reports name it. */
  key: string;
  regex: RegExp;
}

const ASCII_WORD = /\w/;

/** The marker as a regex over the original text, with `\b` where it starts (ends) with a word character. */
function markerSource(marker: string): string {
  const before = ASCII_WORD.test(marker[0] ?? '') ? String.raw`\b` : '';
  const after = ASCII_WORD.test(marker[marker.length - 1] ?? '') ? String.raw`\b` : '';
  return `${before}${escapeRegExp(marker)}${after}`;
}

/**
 * The anchored form of a marker, if the cheap mode's validation accepts it.
 *
 * @example
 * anchoredForm('and')?.source; // '\\bI (?:want|need|would like)\\b(?:(?!\\bso\\b|…)[^\\n])*?\\band\\b'
 */
export function anchoredForm(marker: string): AnchoredForm | undefined {
  const source = `${MEANS_START}${WITHIN_MEANS}${markerSource(marker)}`;
  const planned = planRegex(source);
  if (!planned.ok) return undefined;
  return { marker, source, key: `/${source}/`, regex: planned.plan.regex };
}

/** The anchored form of every conjunction marker. */
export const ANCHORED_FORMS: readonly AnchoredForm[] = STRUCTURAL_MARKERS.filter(
  ({ role }) => role === 'conjunction',
).flatMap(({ text }) => anchoredForm(text) ?? []);

const BY_KEY: ReadonlyMap<string, AnchoredForm> = new Map(
  ANCHORED_FORMS.map((form) => [form.key, form]),
);

/**
 * The anchored form named `key` (`/source/`), if it is one.
 *
 * @example
 * anchoredByKey(ANCHORED_FORMS[0].key)?.marker; // 'and'
 */
export function anchoredByKey(key: string): AnchoredForm | undefined {
  return BY_KEY.get(key);
}

/**
 * The keys of the anchored forms that fire on a text (the original text, not lower-cased).
 *
 * @example
 * textAnchoredKeys('As a planner, I want to plan and route, so that trips are short.');
 * // ['/\\bI (?:want|need|would like)\\b(?:(?!\\bso\\b|…)[^\\n])*?\\band\\b/']
 */
export function textAnchoredKeys(text: string): string[] {
  if (!HAS_MEANS.test(text)) return []; // most artefacts are not stories: one search, not six
  // A form cannot match without its (ASCII) marker: the plain search first, far cheaper.
  const lower = text.toLowerCase();
  return ANCHORED_FORMS.filter(
    ({ marker, regex }) => lower.includes(marker) && regex.test(text),
  ).map(({ key }) => key);
}
