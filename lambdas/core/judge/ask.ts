/**
 * Asking a model for an answer in a given shape, the pure half: what is asked, what comes
 * back, and the exchange after an answer that does not parse (the model is shown its answer
 * and what is wrong with it). The judge's samples and the pattern proposals both ask this
 * way; the calls themselves are made by `steps/ask-until-valid.ts`.
 */
import { TransientError, type RalphError } from '../errors.js';
import type { ModelUsage } from '../schemas/evaluation.js';
import type { PricingTable } from './pricing.js';

export interface AskSpec<T> {
  modelId: string;
  system: string;
  user: string;
  maxTokens: number;
  timeoutMs: number;
  maxTries: number;
  temperature?: number;
  signal?: AbortSignal;
  pricing?: PricingTable;
  parse(text: string): { ok: true; answer: T } | { ok: false; problem: string };
  /** What the model is told after an answer that did not parse. */
  correction(problem: string): string;
}

export type AskResult<T> =
  | { ok: true; answer: T; text: string; attempts: number; usage: ModelUsage }
  | { ok: false; error: string; raw?: string; attempts: number; usage: ModelUsage };

export interface ChatMessage {
  role: 'user' | 'assistant';
  content: string;
}

/**
 * What is wrong with an answer, in words for the model: the parser's problem, and that the
 * answer was cut off when it hit the token limit.
 *
 * @example
 * answerProblem('not valid JSON', 'max_tokens', 1024);
 * // 'not valid JSON (the answer was cut off at 1024 tokens)'
 */
export function answerProblem(
  problem: string,
  stopReason: string | null,
  maxTokens: number,
): string {
  return stopReason === 'max_tokens'
    ? `${problem} (the answer was cut off at ${maxTokens} tokens)`
    : problem;
}

/**
 * The messages of the next try: the question, then, when the model said anything, its
 * answer and the correction. An empty answer is not shown back (the question is asked
 * again as it was).
 *
 * @example
 * correctedExchange(question, '{"gestalt": 9}', 'gestalt: Too big', correction);
 * // [question, { role: 'assistant', content: '{"gestalt": 9}' }, { role: 'user', content: '...' }]
 */
export function correctedExchange(
  question: ChatMessage,
  answer: string,
  problem: string,
  correction: (problem: string) => string,
): ChatMessage[] {
  const shown = answer.trimEnd();
  return shown.trim() === ''
    ? [question]
    : [
        question,
        { role: 'assistant', content: shown },
        { role: 'user', content: correction(problem) },
      ];
}

/**
 * Why a model call ended the asking, in words for the record.
 *
 * @example
 * describeModelError(new TransientError('overloaded')); // 'model unavailable: overloaded'
 */
export function describeModelError(error: RalphError): string {
  if (error instanceof TransientError) return `model unavailable: ${error.message}`;
  return `model refused the request (${error.code}): ${error.message}`;
}
