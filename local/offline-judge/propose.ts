/**
 * The offline proposer: answers the design document's "Pattern Proposal Prompt" from the
 * judge reasoning it quotes, as a model asked for a pattern that generalises would:
 * - the phrases the judge credited (or, when the cheap mode scored higher, held against
 *   the artefact), strongest criterion first;
 * - each one's general frame before its own wording (see `candidates.ts`): "as a" for "As
 *   a parent", so that one pattern fits every story that names its user, not one story;
 * - when the prompt asks for diversity (after a plateau), a category no live pattern uses
 *   before one they do;
 * - only wording the artefact's text holds (when the prompt shows it), and none that a
 *   current pattern or detected signal already matches, so it never proposes a pattern
 *   twice (a rejected one is not shown in the prompt and may come back: the proposal
 *   step refuses that duplicate).
 * Deterministic; its rationale says it is the offline proposer, a stand-in.
 */
import type { PatternProposalAnswer } from '../../lambdas/core/patterns/proposals/answer.js';
import { roundTo } from '../../lambdas/core/shared/stats.js';
import { candidatesIn, type Candidate } from './candidates.js';
import { OFFLINE_PROPOSER_LABEL } from './labels.js';
import { isCovered, readProposalPrompt, type ProposalQuestion } from './proposal-prompt.js';
import { containsPhrase, quote } from './text.js';

/**
 * What a story rubric commonly credits, for when the judge quotes nothing new: a stated
 * outcome, an observable result, a Given/Then criterion (first one the text holds and no
 * pattern matches; "so that" when none is left, which the proposal step refuses as a
 * duplicate).
 */
const STORY_FALLBACKS = ['so that', 'returns', 'given'];

/**
 * A proposal for the proposal prompt, or undefined when the text is not that prompt.
 *
 * @example
 * proposePatternOffline(proposalPrompt);
 * // { category: 'value_phrases', pattern: 'as a', rationale: 'offline proposer ...' }
 */
export function proposePatternOffline(prompt: string): PatternProposalAnswer | undefined {
  const question = readProposalPrompt(prompt);
  if (!question) return undefined;
  const change = /\bthis change\b/i.test(question.reasoning);
  const scores = `the judge scored ${question.judgeScore ?? '?'} and the cheap evaluator ${question.cheapScore ?? '?'} (gap ${roundTo(question.gap, 2)})`;
  const chosen = chooseCandidate(question, change);
  if (!chosen) return fallbackProposal(question, change, scores);
  const positive = isPositive(chosen, question.gap);
  const verdict = `the judge ${positive ? 'credits' : 'holds against it'} ${quote(chosen.quoted)} under ${chosen.criterion === undefined ? 'its reasoning' : `${chosen.criterion} (${chosen.score}/5)`}`;
  const generalised =
    chosen.phrase === chosen.quoted
      ? ''
      : `; it proposes the frame ${quote(chosen.phrase.toLowerCase())}, which other artefacts of the kind share, rather than this one's own wording`;
  return {
    category: categoryOf(chosen, question.gap, change),
    pattern: chosen.phrase.toLowerCase(),
    rationale: `${OFFLINE_PROPOSER_LABEL}: ${scores}; ${verdict}${generalised}, and no current pattern or detected signal matches it.`,
  };
}

/**
 * The best new candidate that points the way of the gap: in a category the live patterns
 * do not use yet (when asked), then from the strongest criterion, then general first.
 */
function chooseCandidate(question: ProposalQuestion, change: boolean): Candidate | undefined {
  const { gap, known, text, usedCategories } = question;
  const fresh = candidatesIn(question.reasoning).filter(
    (candidate) => !isCovered(candidate.phrase, known),
  );
  // Wording the artefact holds can fire on it; a quote the judge reworded cannot.
  const candidates =
    text === undefined
      ? fresh
      : fresh.filter((candidate) => containsPhrase(text, candidate.phrase));
  // Only what points the way of the gap: a phrase held against the artefact is no good signal.
  const strength = (candidate: Candidate): number =>
    candidate.score === undefined ? 0 : gap >= 0 ? candidate.score - 3.5 : 3.5 - candidate.score;
  const fresher = (candidate: Candidate): number =>
    usedCategories === undefined || !usedCategories.includes(categoryOf(candidate, gap, change))
      ? 1
      : 0;
  return candidates
    .filter((candidate) => candidate.score === undefined || strength(candidate) > 0)
    .sort(
      (a, b) =>
        fresher(b) - fresher(a) ||
        strength(b) - strength(a) ||
        Number(b.general) - Number(a.general),
    )[0];
}

/** Whether the candidate is a good signal: credited, or (unscored) in a positive gap. */
function isPositive(candidate: Candidate, gap: number): boolean {
  return candidate.score === undefined ? gap >= 0 : candidate.score >= 4;
}

function categoryOf(candidate: Candidate, gap: number, change: boolean): string {
  const positive = isPositive(candidate, gap);
  if (change) return positive ? 'good_change_indicators' : 'bad_change_indicators';
  if (!positive) return 'bad_story_indicators';
  return candidate.criterion === 'clear user problem' ? 'value_phrases' : 'good_story_indicators';
}

/** A signal artefacts the judge credits commonly share, when the reasoning offers none. */
function fallbackProposal(
  question: ProposalQuestion,
  change: boolean,
  scores: string,
): PatternProposalAnswer {
  const { known, text } = question;
  const fallback = change
    ? 'adds test cases'
    : (STORY_FALLBACKS.find(
        (phrase) =>
          !isCovered(phrase, known) && (text === undefined || containsPhrase(text, phrase)),
      ) ?? 'so that');
  return {
    category: change ? 'good_change_indicators' : 'good_story_indicators',
    pattern: fallback,
    rationale: `${OFFLINE_PROPOSER_LABEL}: ${scores}; the judge reasoning quotes no phrase that the current patterns lack, so it proposes ${quote(fallback)}, a signal stories the judge credits commonly share.`,
  };
}
