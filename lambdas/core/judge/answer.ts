/**
 * Reading a model's JSON answer: the judge's, and (through `parseModelJson`) the pattern
 * proposer's. The answer must be one JSON object of the expected shape; the only leniency
 * is a code fence around the whole of it (```json ... ```), which models add despite being
 * told not to, and, where the caller allows it, one fence inside prose. Anything else (prose
 * around bare JSON, a second object, a score outside 1–5) is an invalid answer, reported as
 * a value, never thrown.
 */
import { z } from 'zod';
import {
  CriterionVerdictSchema,
  GestaltAnswerSchema,
  JudgeAnswerSchema,
  type JudgeAnswer,
} from '../schemas/evaluation.js';
import type { QusCriterion } from '../schemas/qus.js';
import { formatZodIssues } from '../shared/validation.js';
import type { Rubric } from './rubrics.js';

export type ParsedAnswer<T> = { ok: true; answer: T } | { ok: false; problem: string };
export type ParsedJudgeAnswer = ParsedAnswer<JudgeAnswer>;

const WHOLE_FENCE = /^```(?:json)?[ \t]*\r?\n([\s\S]*?)\r?\n[ \t]*```$/i;
const ANY_FENCE = /```(?:json)?[ \t]*\r?\n([\s\S]*?)\r?\n[ \t]*```/gi;
const PROBLEM_LIMIT = 300;

function bounded(problem: string): string {
  return problem.length <= PROBLEM_LIMIT ? problem : `${problem.slice(0, PROBLEM_LIMIT - 1)}…`;
}

/** The JSON text of an answer: a whole fence's body, the one fence's body (if allowed), or the text. */
function jsonBody(trimmed: string, fenceInProse: boolean): string {
  const whole = WHOLE_FENCE.exec(trimmed);
  if (whole) return whole[1] as string;
  if (!fenceInProse) return trimmed;
  const fences = [...trimmed.matchAll(ANY_FENCE)];
  return fences.length === 1 ? (fences[0]?.[1] as string) : trimmed;
}

/**
 * Parses one JSON answer and validates it against `schema`.
 *
 * @example
 * parseModelJson('Here:\n```json\n{"a":1}\n```', z.object({ a: z.number() }), { fenceInProse: true });
 * // { ok: true, answer: { a: 1 } }
 */
export function parseModelJson<S extends z.ZodType>(
  text: string,
  schema: S,
  options: { fenceInProse?: boolean } = {},
): ParsedAnswer<z.output<S>> {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, problem: 'the answer is empty' };
  let value: unknown;
  try {
    value = JSON.parse(jsonBody(trimmed, options.fenceInProse ?? false));
  } catch (error) {
    return { ok: false, problem: bounded(`not valid JSON (${(error as Error).message})`) };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, problem: 'the answer is JSON but not an object' };
  const result = schema.safeParse(value);
  if (!result.success)
    return { ok: false, problem: bounded(formatZodIssues(result.error).join('; ')) };
  return { ok: true, answer: result.data };
}

/**
 * Parses and validates one answer of the judge, against what `rubric` asks: with QUS
 * criteria, a verdict on each of them exactly once (a defect with its evidence); without,
 * the gestalt alone (per-criterion verdicts sent anyway are dropped). Without a rubric, any
 * answer of the stored shape.
 *
 * @example
 * parseJudgeAnswer('```json\n{"gestalt":4,"reasoning":"ok","strengths":[],"weaknesses":[]}\n```');
 * // { ok: true, answer: { gestalt: 4, ... } }
 * parseJudgeAnswer('{"gestalt":7,"reasoning":"ok","strengths":[],"weaknesses":[]}');
 * // { ok: false, problem: 'gestalt: Too big: expected number to be <=5' }
 * parseJudgeAnswer(answerWithoutAtomic, USER_STORY_RUBRIC);
 * // { ok: false, problem: 'criteria: no verdict on atomic' }
 */
export function parseJudgeAnswer(text: string, rubric?: Pick<Rubric, 'qus'>): ParsedJudgeAnswer {
  return parseModelJson(text, judgeAnswerSchemaFor(rubric));
}

/**
 * The schema a judge answer must meet for `rubric` (see {@link parseJudgeAnswer}).
 *
 * @example
 * judgeAnswerSchemaFor(USER_STORY_RUBRIC).safeParse(answer).success;
 */
export function judgeAnswerSchemaFor(rubric?: Pick<Rubric, 'qus'>): z.ZodType<JudgeAnswer> {
  if (!rubric) return JudgeAnswerSchema;
  if (!rubric.qus) return GestaltAnswerSchema;
  const asked = rubric.qus.map((question) => question.criterion);
  return GestaltAnswerSchema.extend({ criteria: z.array(CriterionVerdictSchema) }).superRefine(
    (answer, context) => {
      for (const message of verdictProblems(answer.criteria, asked))
        context.addIssue({ code: 'custom', path: ['criteria'], message });
    },
  );
}

/** What is wrong with the verdicts: a criterion missing, answered twice, not asked, or a defect without evidence. */
function verdictProblems(
  verdicts: readonly { criterion: QusCriterion; verdict: string; evidence: string }[],
  asked: readonly QusCriterion[],
): string[] {
  const problems: string[] = [];
  const seen = new Set<QusCriterion>();
  for (const { criterion, verdict, evidence } of verdicts) {
    if (!asked.includes(criterion))
      problems.push(`${criterion} is not asked here (answer only ${asked.join(', ')})`);
    else if (seen.has(criterion)) problems.push(`${criterion} has more than one verdict`);
    else if (verdict === 'defect' && evidence.trim() === '')
      problems.push(`the ${criterion} defect quotes no evidence from the story`);
    seen.add(criterion);
  }
  const missing = asked.filter((criterion) => !seen.has(criterion));
  if (missing.length > 0) problems.push(`no verdict on ${missing.join(', ')}`);
  return problems;
}
