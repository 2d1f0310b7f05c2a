/**
 * What can be read from the agent's own words: questions it put to the user (there is
 * none to answer in autonomous mode) and assumptions it said it made. Each rule is
 * conservative: a missed question costs less than a false one.
 */

/** Prose only: fenced code blocks and quoted lines are not the agent speaking. */
function prose(text: string): string {
  return text
    .replace(/```[\s\S]*?(?:```|$)/g, '\n')
    .split('\n')
    .filter((line) => !/^\s*>/.test(line))
    .join('\n');
}

/** Sentences, each ending at `.`, `!` or `?` followed by space, or at a line break. */
export function sentences(text: string): string[] {
  return prose(text)
    .split(/(?<=[.!?])\s+|\n+/)
    .map((sentence) =>
      sentence
        .trim()
        .replace(/^(?:[-*+]|\d+[.)])\s+/, '')
        .replace(/[*_"')\]]+$/, '')
        .replace(/^[*_"'([]+/, '')
        .trim(),
    )
    .filter((sentence) => sentence !== '');
}

/** Addressed to the reader: "you", or asking leave ("Should I ...?", "Want me to ...?"). */
const ADDRESSED: readonly RegExp[] = [
  /\byou(?:r|rs|rself|'d|'re|'ll|'ve)?\b/i,
  /^(?:should|shall|may|can|could|would) I\b/i,
  /^(?:should|shall) we\b/i,
  /\b(?:want|like|prefer) me to\b/i,
];

/**
 * The questions the agent put to the user: sentences of its own prose that end with `?`
 * and address the reader. Self-talk ("Why does this fail?", "Do I need X?") is not one.
 *
 * @example
 * questionsTo('Tests pass. Should I also update the README?') // ['Should I also update the README?']
 * questionsTo('Why does this fail? Let me check.')           // []
 */
export function questionsTo(text: string): string[] {
  return sentences(text).filter(
    (sentence) => sentence.endsWith('?') && ADDRESSED.some((pattern) => pattern.test(sentence)),
  );
}

const ASSUMING =
  /\b(?:I(?:'ll| will| am|'m)?\s+(?:just\s+)?assum(?:e|ing)|assuming\s+(?:that|the|this|it|we|a|an)\b|presumably)\b/i;

/**
 * The assumptions the agent said it made: "I'll assume ...", "Assuming that ...",
 * "presumably ...".
 *
 * @example
 * assumptionsIn("The spec is vague. I'll assume dates are UTC.") // ["I'll assume dates are UTC."]
 */
export function assumptionsIn(text: string): string[] {
  return sentences(text).filter((sentence) => !sentence.endsWith('?') && ASSUMING.test(sentence));
}
