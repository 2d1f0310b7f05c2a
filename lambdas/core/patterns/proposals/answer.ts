/**
 * Reading the model's pattern proposal and turning it into a provisional pattern.
 *
 * The answer must be one JSON object of the document's shape (`category`, `pattern`,
 * `rationale`, and our optional `kind`); a code fence around it is tolerated, as is prose
 * around one ```json fence. Anything else is an invalid answer, reported with its zod
 * paths as a value, never thrown.
 *
 * A valid answer may still be refused as a pattern: a regex that does not compile, matches
 * the empty string or nests unbounded quantifiers (`(a+)+`: catastrophic backtracking on a
 * long artefact would stall the cheap mode), a category that contradicts the direction of
 * the gap, or a duplicate of a pattern the set already holds.
 */
import { z } from 'zod';
import { planRegex } from '../../cheap/regex-plan.js';
import { parseModelJson, type ParsedAnswer } from '../../judge/answer.js';
import { PatternSchema, type Pattern } from '../../schemas/evaluation.js';
import type { EvaluationConfig } from '../../schemas/evaluation-config.js';
import {
  duplicateReason,
  findExactDuplicate,
  learnedPatternId,
  normaliseTerm,
} from '../pattern-identity.js';
import type { PatternDirection } from './prompt.js';

export const PROPOSAL_SOURCE = 'llm_proposal';

export const PATTERN_KINDS = ['keyword', 'phrase', 'regex'] as const;
export type PatternKind = (typeof PATTERN_KINDS)[number];

/** What the proposal prompt asks for (`local/offline-judge.ts` answers the first three). */
export const PatternProposalAnswerSchema = z.object({
  category: z.string().trim().min(1).max(80),
  /** "the exact string or regex to add". */
  pattern: z.string().trim().min(2).max(200),
  rationale: z.string().trim().min(1),
  kind: z.enum(PATTERN_KINDS).optional(),
});
export type PatternProposalAnswer = z.infer<typeof PatternProposalAnswerSchema>;

export type ParsedProposalAnswer = ParsedAnswer<PatternProposalAnswer>;

/**
 * Parses and validates one answer.
 *
 * @example
 * parseProposalAnswer('```json\n{"category":"value_phrases","pattern":"frustrated when","rationale":"pain"}\n```');
 * // { ok: true, answer: { category: 'value_phrases', pattern: 'frustrated when', rationale: 'pain' } }
 * parseProposalAnswer('{"category":"value_phrases","rationale":"pain"}');
 * // { ok: false, problem: 'pattern: expected string, received undefined' }
 */
export function parseProposalAnswer(text: string): ParsedProposalAnswer {
  return parseModelJson(text, PatternProposalAnswerSchema, { fenceInProse: true });
}

const REGEX_SYNTAX = /[\\[\](){}|*+?^$]/;
const ONE_WORD = /^[\p{L}\p{M}\p{N}_]+$/u;

/**
 * How a proposed pattern is matched: as the answer says, else a regex when it has regex
 * syntax, a keyword when it is one word, a phrase otherwise.
 *
 * @example
 * kindOf({ pattern: 'frustrated when' }); // 'phrase'
 * kindOf({ pattern: '\\bstuck\\b' });     // 'regex'
 */
export function kindOf(answer: Pick<PatternProposalAnswer, 'pattern' | 'kind'>): PatternKind {
  if (answer.kind) return answer.kind;
  if (REGEX_SYNTAX.test(answer.pattern)) return 'regex';
  return ONE_WORD.test(answer.pattern) ? 'keyword' : 'phrase';
}

/** The polarity a category names, if it names one. */
function categoryPolarity(category: string): PatternDirection | undefined {
  if (/(^|[^a-z])(bad|anti|negative)/i.test(category)) return 'bad';
  if (/(^|[^a-z])(good|value|positive)/i.test(category)) return 'good';
  return undefined;
}

export interface ProposalContext {
  /** The pattern the gap calls for (see `directionOf`). */
  direction: PatternDirection;
  /** The `appliesTo` target of the artefact the proposal is about. */
  target: string;
  /** The iteration that learned it. */
  iteration: number;
  now: Date;
  /** Every pattern of the current set (and those accepted earlier in this pass). */
  existing: readonly Pattern[];
  /** For the description: the artefact the proposal is about. */
  artefactId: string;
}

export type ConvertedProposal = { ok: true; pattern: Pattern } | { ok: false; reason: string };

/**
 * A valid answer as a provisional pattern, or the reason it is refused.
 *
 * @example
 * proposalToPattern(answer, { direction: 'good', target: 'document:user_story', iteration: 3,
 *   now, existing: set.patterns, artefactId: 'story_1' }, config);
 * // { ok: true, pattern: { id: 'p_frustrated_when_…', type: 'good', phrases: ['frustrated when'],
 * //   status: 'provisional', source: 'llm_proposal', learnedIteration: 3, ... } }
 */
export function proposalToPattern(
  answer: PatternProposalAnswer,
  context: ProposalContext,
  config: Pick<EvaluationConfig, 'proposals'>,
): ConvertedProposal {
  const polarity = categoryPolarity(answer.category);
  if (polarity !== undefined && polarity !== context.direction)
    return {
      ok: false,
      reason: `category "${answer.category}" names ${polarity} signals, but the gap calls for a ${context.direction} pattern`,
    };

  const kind = kindOf(answer);
  let match: Pick<Pattern, 'keywords' | 'phrases' | 'regexes'>;
  let id: string;
  if (kind === 'regex') {
    const plan = planRegex(answer.pattern);
    if (!plan.ok) return { ok: false, reason: `regex /${answer.pattern}/ refused: ${plan.reason}` };
    match = { keywords: [], phrases: [], regexes: [answer.pattern] };
    id = learnedPatternId({ regex: answer.pattern });
  } else {
    const term = normaliseTerm(answer.pattern);
    match =
      kind === 'keyword'
        ? { keywords: [term], phrases: [], regexes: [] }
        : { keywords: [], phrases: [term], regexes: [] };
    id = learnedPatternId({ term });
  }

  const pattern = PatternSchema.parse({
    id,
    type: context.direction,
    description: `${answer.rationale} (proposed for ${context.artefactId})`,
    appliesTo: [context.target],
    category: answer.category,
    ...match,
    weight: config.proposals.initialWeight,
    source: PROPOSAL_SOURCE,
    discoveredAt: context.now.toISOString(),
    learnedIteration: context.iteration,
    status: 'provisional',
  });
  const duplicate = findExactDuplicate(pattern, context.existing);
  if (duplicate) return { ok: false, reason: duplicateReason(duplicate) };
  return { ok: true, pattern };
}
