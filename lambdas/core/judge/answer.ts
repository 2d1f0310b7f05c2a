/**
 * Reading the judge's answer. The answer must be one JSON object of the JudgeAnswer shape;
 * the only leniency is a code fence around the whole of it (```json ... ```), which models
 * add despite being told not to. Anything else (prose around the JSON, a second object, a
 * score outside 1–5) is an invalid answer, reported as a value, never thrown.
 */
import { JudgeAnswerSchema, type JudgeAnswer } from '../schemas/evaluation.js';
import { formatZodIssues } from '../shared/validation.js';

export type ParsedJudgeAnswer = { ok: true; answer: JudgeAnswer } | { ok: false; problem: string };

const WHOLE_FENCE = /^```(?:json)?[ \t]*\r?\n([\s\S]*?)\r?\n[ \t]*```$/i;
const PROBLEM_LIMIT = 300;

/**
 * Parses and validates one answer.
 *
 * @example
 * parseJudgeAnswer('```json\n{"gestalt":4,"reasoning":"ok","strengths":[],"weaknesses":[]}\n```');
 * // { ok: true, answer: { gestalt: 4, ... } }
 * parseJudgeAnswer('{"gestalt":7,"reasoning":"ok","strengths":[],"weaknesses":[]}');
 * // { ok: false, problem: 'gestalt: Too big: expected number to be <=5' }
 */
export function parseJudgeAnswer(text: string): ParsedJudgeAnswer {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, problem: 'the answer is empty' };
  const body = WHOLE_FENCE.exec(trimmed)?.[1] ?? trimmed;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    return { ok: false, problem: bounded(`not valid JSON (${(error as Error).message})`) };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, problem: 'the answer is JSON but not an object' };
  const result = JudgeAnswerSchema.safeParse(value);
  if (!result.success)
    return { ok: false, problem: bounded(formatZodIssues(result.error).join('; ')) };
  return { ok: true, answer: result.data };
}

function bounded(problem: string): string {
  return problem.length <= PROBLEM_LIMIT ? problem : `${problem.slice(0, PROBLEM_LIMIT - 1)}…`;
}
