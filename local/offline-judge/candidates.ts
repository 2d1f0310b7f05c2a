/**
 * The phrases a judge's reasoning offers the offline proposer: each quoted phrase with the
 * criterion it was quoted under and that criterion's score, and, where a phrase opens
 * with a frame (see `FRAME_WORDS`), the frame as a more general candidate before it.
 */

/** A phrase the proposer could propose. */
export interface Candidate {
  /** What to propose. */
  phrase: string;
  /** What the judge quoted (the phrase itself, or the phrase it is the frame of). */
  quoted: string;
  criterion?: string;
  /** The criterion's score, 3 at most when the note criticises the phrase; none in free-form reasoning. */
  score?: number;
  /** A frame other artefacts of the kind share, not this artefact's own wording. */
  general: boolean;
}

/**
 * Closed-class words. A credited phrase that opens with two or more of them ("As a
 * parent", "have to scroll") is a frame every story of its kind can share ("as a", "have
 * to") followed by what only this story says; a phrase made of them alone ("so that") is
 * such a frame already.
 */
const FRAME_WORDS = new Set([
  'a',
  'an',
  'as',
  'at',
  'be',
  'by',
  'can',
  'do',
  'for',
  'had',
  'has',
  'have',
  'i',
  'in',
  'is',
  'it',
  'my',
  'not',
  'of',
  'on',
  'order',
  'our',
  'so',
  'that',
  'the',
  'their',
  'to',
  'we',
  'when',
  'which',
  'who',
  'with',
]);

const QUOTED = /["“]([^"”\n]{2,60})["”]/g;
/** How a judge's note says a quoted phrase cost the artefact points. */
const CRITICISM =
  /\b(?:defect|joins concerns|vague|depends on|adds more|no trace|failed|not observable|too many|too thin|longer than)\b/i;

/**
 * The candidates in a judge's reasoning, each frame before the phrase it opens.
 *
 * @example
 * candidatesIn('clear user problem 4/5 (names the user "As a parent")');
 * // [{ phrase: 'As a', general: true, ... }, { phrase: 'As a parent', general: false, ... }]
 */
export function candidatesIn(reasoning: string): Candidate[] {
  return withFrames(quotedCandidatesIn(reasoning));
}

/**
 * Quoted phrases, with the criterion clause (`name N/5 (...)`) they appear in and its
 * score; a phrase the clause criticises ("title joins concerns with "and"") counts as held
 * against the artefact, whatever the criterion scored.
 */
function quotedCandidatesIn(reasoning: string): Omit<Candidate, 'general'>[] {
  const candidates: Omit<Candidate, 'general'>[] = [];
  const clause = /([A-Za-z][A-Za-z ]*?) (\d(?:\.\d+)?)\/5 \(([^)]*)\)/g;
  for (const match of reasoning.matchAll(clause)) {
    const [, name, score, notes = ''] = match;
    let from = 0;
    for (const quoted of notes.matchAll(QUOTED)) {
      const phrase = (quoted[1] as string).trim();
      const said = notes.slice(from, quoted.index);
      from = quoted.index + quoted[0].length;
      const held = CRITICISM.test(said) ? Math.min(Number(score), 3) : Number(score);
      candidates.push({ phrase, quoted: phrase, criterion: name?.trim(), score: held });
    }
  }
  if (candidates.length > 0) return candidates;
  // Free-form reasoning (a real model's): every quoted phrase, in the gap's direction.
  return quotedIn(reasoning).map((phrase) => ({ phrase, quoted: phrase }));
}

/** Each candidate preceded by its frame, when it opens with one (see `FRAME_WORDS`). */
function withFrames(candidates: readonly Omit<Candidate, 'general'>[]): Candidate[] {
  return candidates.flatMap((candidate) => {
    const words = candidate.phrase.split(/\s+/);
    const lead = words.findIndex((word) => !FRAME_WORDS.has(word.toLowerCase()));
    const frameLength = lead === -1 ? words.length : lead;
    const own = { ...candidate, general: frameLength === words.length };
    if (frameLength < 2 || frameLength === words.length) return [own];
    return [{ ...candidate, phrase: words.slice(0, frameLength).join(' '), general: true }, own];
  });
}

function quotedIn(text: string): string[] {
  return [...text.matchAll(QUOTED)].map((match) => (match[1] as string).trim());
}
