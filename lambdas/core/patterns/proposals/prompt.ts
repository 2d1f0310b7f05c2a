/**
 * The design document's "Pattern Proposal Prompt", filled from one artefact: the judge's
 * verdict (score, reasoning, strengths, weaknesses), the cheap mode's (score, the signals
 * it detected) and the current patterns. Its wording is the document's, section by
 * section, so that the local model double (`local/offline-judge.ts`) recognises it and
 * reads its sections back; two additions help a real model: the artefact's text (what a
 * pattern will be matched against) and the direction the pattern must push the score.
 */
import { SCORING_STATUSES, targetOf } from '../../cheap/compile.js';
import { clip, fence } from '../../judge/prompt.js';
import { roundTo } from '../../shared/stats.js';
import type { JudgeVerdict } from '../../gap/pairing.js';
import type { Artefact, CheapModeResult, Pattern } from '../../schemas/evaluation.js';
import { patternText } from '../artefact-text.js';
import type { EvaluationConfig } from '../../schemas/evaluation-config.js';

export type PatternDirection = 'good' | 'bad';

export interface ProposalPromptInput {
  artefact: Artefact;
  judge: Pick<JudgeVerdict, 'gestalt' | 'reasoning' | 'strengths' | 'weaknesses'>;
  cheap: Pick<CheapModeResult, 'gestalt' | 'reasons' | 'patternsMatched' | 'patternsMissed'>;
  /** The current pattern set; only live patterns that apply to the artefact are shown. */
  patterns: readonly Pattern[];
  /**
   * Recovery `increase_proposal_diversity` (a plateau): ask for a category the live
   * patterns do not use yet, since more of the same has stopped closing the gap.
   */
  diversify?: boolean;
}

export interface ProposalPrompt {
  system: string;
  user: string;
  /** `good` when the judge scored higher than the cheap mode (a missed good signal). */
  direction: PatternDirection;
  /** The `appliesTo` target of the artefact (and of the pattern it asks for). */
  target: string;
}

export type ProposalPromptConfig = Pick<EvaluationConfig, 'proposals'>;

export const PROPOSAL_SYSTEM_PROMPT = [
  'You improve a cheap, pattern-based evaluator so that its scores track an expensive LLM judge.',
  'A pattern is a keyword, a phrase or a regular expression; when it occurs in an artefact, the cheap evaluator adds (good) or subtracts (bad) a fixed amount.',
  'Propose patterns that generalise to other artefacts of the same kind, never text unique to one artefact.',
  'You answer with one JSON object and nothing else: no prose before or after it, no code fence.',
].join('\n');

/** The document's answer format, verbatim apart from the categories of the artefact's kind. */
function answerFormat(categories: string): string {
  return [
    'Propose a specific, testable pattern in this format:',
    '{',
    `"category": "${categories}",`,
    '"pattern": "the exact string or regex to add",',
    '"rationale": "why this captures the signal"',
    '}',
    'You may add "kind": "keyword" (one whole word), "phrase" (text found anywhere) or "regex" (a case-insensitive JavaScript regular expression, without nested quantifiers). Without it, a pattern with regex syntax is read as a regex, one word as a keyword, several words as a phrase.',
  ].join('\n');
}

/**
 * The categories offered for an artefact's kind (as the offline proposer names them).
 *
 * @example
 * categoriesFor('change'); // 'good_change_indicators | bad_change_indicators | ...'
 */
export function categoriesFor(target: string): string {
  return target === 'change'
    ? 'good_change_indicators | bad_change_indicators | ...'
    : target === 'document:user_story'
      ? 'good_story_indicators | bad_story_indicators | value_phrases | ...'
      : 'good_indicators | bad_indicators | ...';
}

/**
 * The pattern a gap calls for: `good` when the judge scored higher (the cheap mode missed
 * something it should reward), `bad` when lower.
 *
 * @example
 * directionOf(1.5); // 'good'
 */
export function directionOf(gap: number): PatternDirection {
  return gap >= 0 ? 'good' : 'bad';
}

function subjectOf(artefact: Artefact): string {
  if (artefact.kind === 'change') return 'change';
  return artefact.documentType === 'user_story' ? 'story' : 'document';
}

const score = (value: number): string => String(roundTo(value, 2));

function describeMatch(pattern: Pattern): string {
  const what = [
    ...pattern.keywords,
    ...pattern.phrases,
    ...pattern.regexes.map((source) => `/${source}/`),
  ].join(' | ');
  const description = pattern.description.replace(/\s+/g, ' ').trim();
  const shown = description.length > 120 ? `${description.slice(0, 119)}…` : description;
  return `${what || '(no terms)'}${shown === '' ? '' : ` — ${shown}`}`;
}

/** Live patterns of the artefact's target: the fired ones, then by weight, then by id. */
function listedPatterns(
  patterns: readonly Pattern[],
  target: string,
  fired: ReadonlySet<string>,
  limit: number,
): { lines: string[]; hidden: number } {
  const applicable = patterns
    .filter((pattern) => SCORING_STATUSES.has(pattern.status) && pattern.appliesTo.includes(target))
    .sort(
      (a, b) =>
        Number(fired.has(b.id)) - Number(fired.has(a.id)) ||
        b.weight - a.weight ||
        (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
  const lines = applicable
    .slice(0, limit)
    .map(
      (pattern) =>
        `- ${pattern.id} [${pattern.type}, ${fired.has(pattern.id) ? 'fired' : 'did not fire'}]: ${describeMatch(pattern)}`,
    );
  return { lines, hidden: Math.max(0, applicable.length - limit) };
}

/**
 * The proposal prompt for one artefact.
 *
 * @example
 * const { system, user, direction } = buildProposalPrompt(
 *   { artefact, judge: pair.judge, cheap: pair.cheapResult, patterns: set.patterns },
 *   config,
 * );
 * await model.complete({ model, system, messages: [{ role: 'user', content: user }], ... });
 */
export function buildProposalPrompt(
  input: ProposalPromptInput,
  config: ProposalPromptConfig,
): ProposalPrompt {
  const { artefact, judge, cheap } = input;
  const target = targetOf(artefact);
  const gap = judge.gestalt - cheap.gestalt;
  const direction = directionOf(gap);
  const subject = subjectOf(artefact);
  const fired = new Set(cheap.patternsMatched);
  const byId = new Map(input.patterns.map((pattern) => [pattern.id, pattern]));

  const signals = [
    ...cheap.reasons.filter((reason) => !fired.has(reason)).map((reason) => `- ${reason}`),
    ...cheap.patternsMatched.map((id) => {
      const pattern = byId.get(id);
      return pattern ? `- ${id} (${pattern.type}): ${describeMatch(pattern)}` : `- ${id}`;
    }),
  ];
  const listed = listedPatterns(input.patterns, target, fired, config.proposals.patternListLimit);
  const text = patternText(artefact);

  const user = [
    `The expensive LLM judge gave this ${subject} a score of ${score(judge.gestalt)}.`,
    `The cheap pattern-based evaluator gave it ${score(cheap.gestalt)}.`,
    `Gap: ${score(gap)}`,
    '',
    `The ${subject} (${artefact.id}, ${target}) as the cheap evaluator reads it:`,
    text.trim() === '' ? '(empty)' : fence(clip(text, config.proposals.artefactChars), 'text'),
    '',
    'Expensive mode reasoning:',
    judge.reasoning,
    ...(judge.strengths.length > 0
      ? ['Strengths:', ...judge.strengths.map((line) => `- ${line}`)]
      : []),
    ...(judge.weaknesses.length > 0
      ? ['Weaknesses:', ...judge.weaknesses.map((line) => `- ${line}`)]
      : []),
    '',
    'Cheap mode detected these signals:',
    ...(signals.length > 0 ? signals : ['(none)']),
    '',
    'Current cheap mode patterns:',
    ...(listed.lines.length > 0 ? listed.lines : ['(none)']),
    ...(listed.hidden > 0 ? [`(${listed.hidden} more not shown)`] : []),
    `(${cheap.patternsMissed.length} applicable patterns did not fire on this ${subject}.)`,
    '',
    'What pattern is the cheap mode MISSING that would catch what the expensive mode saw?',
    direction === 'good'
      ? `The judge scored this ${subject} higher than the cheap mode: propose a good signal the cheap mode should reward.`
      : `The judge scored this ${subject} lower than the cheap mode: propose a bad signal the cheap mode should penalise.`,
    `The pattern is matched case-insensitively against text like the ${subject} above, so it must be wording that occurs there, and in other ${subject === 'story' ? 'stories' : `${subject}s`} of the same quality.`,
    '',
    ...(input.diversify
      ? [
          `The gap has stopped closing with patterns like the current ones: propose one of a category none of them uses yet (used: ${usedCategories(input.patterns, target)}).`,
          '',
        ]
      : []),
    answerFormat(categoriesFor(target)),
    'Answer with exactly one JSON object and nothing else.',
  ].join('\n');
  return { system: PROPOSAL_SYSTEM_PROMPT, user, direction, target };
}

function usedCategories(patterns: readonly Pattern[], target: string): string {
  const used = [
    ...new Set(
      patterns
        .filter(
          (pattern) =>
            (pattern.status === 'active' || pattern.status === 'provisional') &&
            pattern.appliesTo.includes(target),
        )
        .map((pattern) => pattern.category),
    ),
  ].sort();
  return used.length > 0 ? used.join(', ') : 'none';
}

/**
 * The follow-up turn after an answer that could not be used: what was wrong with it, and
 * the format again (which the local model double also recognises).
 *
 * @example
 * buildProposalCorrection('pattern: Too small: expected string to have >=2 characters', 'change');
 */
export function buildProposalCorrection(problem: string, target: string): string {
  return [
    `Your answer could not be used: ${problem}`,
    answerFormat(categoriesFor(target)),
    'Answer with exactly one JSON object and nothing else.',
  ].join('\n');
}
