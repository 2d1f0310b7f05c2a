/**
 * QUS "atomic": a user story expresses a requirement for exactly one feature. A conjunction
 * in the means ("optimize traffic flow and reduce congestion") joins two features; AQUSA,
 * the rule-based QUS tool, also reads the role ("a blind or visually impaired person").
 * Conjunctions inside a fixed expression ("terms and conditions", "drag and drop", "between
 * A and B") or inside brackets (the minimal criterion's business) join nothing.
 */
import type { StoryParts, Span } from './story-parts.js';
import type { Defect, QusSettings } from '../../schemas/qus.js';

/** "and", "or", "and/or", "&", "as well as", "plus", "along with". */
const CONJUNCTION = /\b(?:and\/or|and|or|as well as|along with|plus)\b|\s&\s/gi;
/** The same, to ask only whether there is one (a global regex's `test` would move `lastIndex`). */
const ANY_CONJUNCTION = new RegExp(CONJUNCTION.source, 'i');

/**
 * Expressions whose "and"/"or" is part of one name or one relation. Lower case; matched as
 * whole words around the conjunction.
 */
const FIXED_EXPRESSIONS = [
  'terms and conditions',
  'drag and drop',
  'pros and cons',
  'research and development',
  'trial and error',
  'black and white',
  'copy and paste',
  'cut and paste',
  'search and rescue',
  'read and write',
  'questions and answers',
  'supply and demand',
  'profit and loss',
  'checks and balances',
  'back and forth',
  'up and down',
  'more and more',
  'and so on',
  'or not',
  'whether or not',
  'sooner or later',
  'more or less',
  'one or more',
  'two or more',
  'and/or',
] as const;
const FIXED = new RegExp(
  `\\b(?:${FIXED_EXPRESSIONS.map((phrase) => phrase.replace(/[/]/g, '\\/').replace(/ /g, '\\s+')).join('|')})\\b`,
  'gi',
);
/** "between A and B", "both A and B", "either A or B": one relation or one choice. */
const PAIRED = /\b(?:between|both|either|neither)\b[^,;.]{1,60}?$/i;

/** The `[start, end)` ranges a conjunction inside does not count: fixed expressions, brackets. */
function exemptRanges(text: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (const match of text.matchAll(FIXED)) {
    // "and/or" is still a conjunction between two things; only the listed phrases are exempt.
    if (match[0].toLowerCase() === 'and/or') continue;
    ranges.push([match.index, match.index + match[0].length]);
  }
  for (const match of text.matchAll(/\([^()]*\)|\[[^[\]]*\]/g))
    ranges.push([match.index, match.index + match[0].length]);
  return ranges;
}

/** Up to `count` words on each side of `[start, end)`: what a reader needs to see the join. */
function around(text: string, start: number, end: number, count = 2): string {
  const before = text.slice(0, start).split(/\s+/).filter(Boolean).slice(-count).join(' ');
  const after = text.slice(end).split(/\s+/).filter(Boolean).slice(0, count).join(' ');
  return [before, text.slice(start, end).trim(), after]
    .filter(Boolean)
    .join(' ')
    .replace(/[,;]+$/, '');
}

function conjunctionIn(parts: StoryParts, part: Span | null): string | null {
  if (!part) return null;
  const text = parts.text.slice(part.start, part.end);
  // Most parts hold no conjunction at all: the exemptions (two more regex scans and their
  // ranges) are worked out only for those that do.
  if (!ANY_CONJUNCTION.test(text)) return null;
  const exempt = exemptRanges(text);
  for (const match of text.matchAll(CONJUNCTION)) {
    const at = match.index;
    if (exempt.some(([from, to]) => at >= from && at < to)) continue;
    if (/and|or/i.test(match[0]) && PAIRED.test(text.slice(0, at))) continue;
    return around(text, at, at + match[0].length);
  }
  return null;
}

/**
 * The atomic defect of a story, if it has one: the first conjunction in its means (and in
 * its role, with `atomicScope: 'role-and-means'`), with two words either side as evidence.
 *
 * @example
 * detectAtomic(parseStory('As a planner, I want to optimize traffic flow and reduce congestion.'), settings);
 * // { criterion: 'atomic', evidence: 'traffic flow and reduce congestion' }
 */
export function detectAtomic(parts: StoryParts, settings: QusSettings): Defect | null {
  const evidence =
    (settings.atomicScope === 'role-and-means' ? conjunctionIn(parts, parts.role) : null) ??
    conjunctionIn(parts, parts.means);
  return evidence === null ? null : { criterion: 'atomic', evidence };
}
