/**
 * QUS "well-formed": a user story includes at least a role and a means. "Full sentence":
 * it reads as one sentence, starting with a capital and ending with a full stop, not as a
 * fragment or a list.
 */
import { partText, type StoryParts } from './story-parts.js';
import type { Defect } from '../../schemas/qus.js';

/** The opening words: what a reader looks at to see that the role or means is missing. */
const opening = (text: string): string => text.trim().split(/\s+/).slice(0, 6).join(' ');

/**
 * The well-formed defect, if the story lacks a role ("As a …") or a means ("I want …").
 *
 * @example
 * detectWellFormed(parseStory('Make login faster')); // { criterion: 'well-formed', evidence: 'Make login faster' }
 */
export function detectWellFormed(parts: StoryParts): Defect | null {
  if (parts.role !== null && partText(parts, parts.role) !== '' && parts.means !== null)
    return null;
  return { criterion: 'well-formed', evidence: opening(parts.text) };
}

/**
 * The full-sentence defect, if the story starts in lower case, breaks across lines, or does
 * not end with a full stop, "!" or "?".
 *
 * @example
 * detectFullSentence('as a user, I want export'); // { criterion: 'full-sentence', evidence: 'as' }
 */
export function detectFullSentence(text: string): Defect | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (/^\p{Ll}/u.test(trimmed))
    return { criterion: 'full-sentence', evidence: trimmed.split(/\s+/)[0]! };
  const lineBreak = /\n\s*\S/.exec(trimmed);
  if (lineBreak)
    return { criterion: 'full-sentence', evidence: opening(trimmed.slice(lineBreak.index)) };
  if (!/[.!?]["'’”)]?$/.test(trimmed))
    return { criterion: 'full-sentence', evidence: trimmed.split(/\s+/).slice(-3).join(' ') };
  return null;
}
