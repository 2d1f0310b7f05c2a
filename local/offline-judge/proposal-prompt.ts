/**
 * Reads the design document's "Pattern Proposal Prompt" (built by
 * `lambdas/core/patterns/proposals/prompt.ts`) back into what the offline
 * proposer decides on: the two scores and their gap, the judge's reasoning, what the
 * current patterns and detected signals already match, the artefact's text, and the
 * categories a plateau's recovery asks it to avoid.
 */
import { readFence, between, numberAfter } from './prompt-sections.js';
import { containsPhrase, normalise } from './text.js';

const PROPOSAL_MARKER = /pattern is the cheap mode missing|propose a specific, testable pattern/i;
/** Where the proposal prompt shows the artefact as the cheap evaluator reads it. */
const ARTEFACT_TEXT_LINE = /as the cheap evaluator reads it:[^\n]*\n/i;

/** What the current patterns and the detected signals match. */
export interface KnownMatchers {
  /** Normalised keywords and phrases of the current patterns, and the detected signals. */
  terms: string[];
  regexes: RegExp[];
}

/** The proposal prompt, as far as the offline proposer reads it. */
export interface ProposalQuestion {
  judgeScore: number | undefined;
  cheapScore: number | undefined;
  /** Judge minus cheap: positive when the cheap mode scored too low. */
  gap: number;
  /** The judge's reasoning (the whole prompt when the section is missing). */
  reasoning: string;
  known: KnownMatchers;
  /** The artefact's text, normalised; undefined when the prompt does not show it. */
  text: string | undefined;
  /** Categories the live patterns use, when the prompt asks for one they do not. */
  usedCategories: string[] | undefined;
}

/**
 * The proposal prompt's parts, or undefined when `prompt` is not that prompt.
 *
 * @example
 * readProposalPrompt(buildProposalPrompt(input).user)?.gap; // e.g. 1.2
 */
export function readProposalPrompt(prompt: string): ProposalQuestion | undefined {
  if (!PROPOSAL_MARKER.test(prompt)) return undefined;
  const judgeScore = numberAfter(prompt, /score of\s*(-?\d+(?:\.\d+)?)/i);
  const cheapScore = numberAfter(prompt, /evaluator gave it\s*(-?\d+(?:\.\d+)?)/i);
  const gap =
    numberAfter(prompt, /\bgap:\s*(-?\d+(?:\.\d+)?)/i) ??
    (judgeScore !== undefined && cheapScore !== undefined ? judgeScore - cheapScore : 0);
  const reasoning =
    between(prompt, /expensive mode reasoning:/i, /cheap mode detected these signals:/i) ?? prompt;
  // Recovery after a plateau asks for a category the live patterns do not use yet.
  const used = /category none of them uses yet \(used: ([^)]*)\)/i.exec(prompt)?.[1]?.split(', ');
  return {
    judgeScore,
    cheapScore,
    gap,
    reasoning,
    known: knownMatchersOf(prompt),
    text: artefactTextOf(prompt),
    usedCategories: used,
  };
}

/**
 * Whether a current pattern already fires wherever `phrase` occurs.
 *
 * @example
 * isCovered('So that', { terms: ['so that'], regexes: [] }); // true
 */
export function isCovered(phrase: string, known: KnownMatchers): boolean {
  const text = normalise(phrase);
  return (
    known.terms.some((term) => term !== '' && containsPhrase(text, term)) ||
    known.regexes.some((regex) => regex.test(text))
  );
}

/**
 * What the current patterns and the detected signals match, read from their list lines
 * (`- p_id [good, fired]: term | /regex/ — description`, `- p_id (good): ...`, `- good_ac`).
 */
function knownMatchersOf(prompt: string): KnownMatchers {
  const sections = [
    between(prompt, /cheap mode detected these signals:/i, /current cheap mode patterns:/i) ?? '',
    between(prompt, /current cheap mode patterns:/i, /what pattern is the cheap mode/i) ?? '',
  ];
  const known: KnownMatchers = { terms: [], regexes: [] };
  for (const line of sections.join('\n').split('\n')) {
    if (!line.startsWith('- ')) continue;
    const entry = line.slice(2);
    const listed = /^p_[a-z0-9_]+ (?:\[[^\]]*\]|\((?:good|bad)\)): (.*)$/.exec(entry);
    const what = (listed ? (listed[1] as string) : entry).split(' — ')[0] as string;
    for (const term of what.split(' | ')) addMatcher(known, term);
  }
  return known;
}

/** A `/regex/` term as a regex, any other as a normalised term. */
function addMatcher(known: KnownMatchers, term: string): void {
  const regex = /^\/(.+)\/$/.exec(term);
  if (!regex) {
    known.terms.push(normalise(term));
    return;
  }
  try {
    known.regexes.push(new RegExp(regex[1] as string, 'i'));
  } catch {
    // A pattern this double cannot compile cannot tell it anything.
  }
}

/** The artefact's text as the prompt shows it, normalised; undefined when it is not shown. */
function artefactTextOf(prompt: string): string | undefined {
  const at = ARTEFACT_TEXT_LINE.exec(prompt);
  if (!at) return undefined;
  const block = readFence(prompt.slice(at.index + at[0].length));
  return block ? normalise(block.body) : undefined;
}
