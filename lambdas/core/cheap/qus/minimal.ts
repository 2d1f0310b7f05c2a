/**
 * QUS "minimal": a user story contains nothing more than a role, means and ends. What is
 * more, as AQUSA finds it: text in brackets, a second sentence, and examples or notes
 * ("e.g.", "such as", "etc.", "Note:") that belong in the acceptance criteria or a comment.
 */
import type { Defect } from '../../schemas/qus.js';

/** A bracketed aside: "(AVs)", "[see design]". */
const BRACKETS = /\([^()]*\)|\[[^[\]]*\]|\{[^{}]*\}/;
/** Example or note markers. */
const EXAMPLE =
  /\b(?:e\.\s?g\.|i\.\s?e\.|etc\b\.?|for example|for instance|such as|note:|n\.b\.|nb:)|\s\.\.\.|…/i;
/**
 * A sentence break: a full stop, "!" or "?" followed by a space and a capital or digit, when
 * the word before is not an abbreviation ("e.g.", "Dr.", "U.S.") or a lone initial.
 */
const SENTENCE_BREAK = /([\p{L}\d)"'’”]+)[.!?]\s+(?=[\p{Lu}\d])/gu;
const STOP_AND_SPACE = /[.!?]\s/;
const ABBREVIATION = /^(?:e\.g|i\.e|etc|vs|dr|mr|mrs|ms|st|no|fig|approx|inc|ltd|u\.s|[\p{L}])$/iu;

/** The second sentence's first words, if the text has more than one sentence. */
function secondSentence(text: string): string | null {
  // Every break has a stop and a space; most stories have one stop, at the end. This scan is
  // cheap where SENTENCE_BREAK tries a run of letters from every position of every word.
  if (!STOP_AND_SPACE.test(text)) return null;
  for (const match of text.matchAll(SENTENCE_BREAK)) {
    if (ABBREVIATION.test(match[1]!)) continue;
    const start = match.index + match[0].length;
    if (start >= text.trimEnd().length) return null;
    return text.slice(start).split(/\s+/).slice(0, 6).join(' ');
  }
  return null;
}

/**
 * The minimal defect of a story, if it has one; the evidence is the bracketed text, the
 * example marker, or the opening words of the second sentence.
 *
 * @example
 * detectMinimal('As an owner, I want to use Autonomous Vehicles (AVs).');
 * // { criterion: 'minimal', evidence: '(AVs)' }
 */
export function detectMinimal(text: string): Defect | null {
  const brackets = BRACKETS.exec(text);
  if (brackets) return { criterion: 'minimal', evidence: brackets[0] };
  const example = EXAMPLE.exec(text);
  if (example) return { criterion: 'minimal', evidence: example[0].trim() };
  const second = secondSentence(text);
  return second === null ? null : { criterion: 'minimal', evidence: second };
}
