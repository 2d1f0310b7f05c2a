/**
 * Script steps for the faults the model adapters and the judge must survive: error
 * statuses in the API's shape (429 with `retry-after`, 529, 500, Bedrock's exceptions),
 * answers slower than the client's timeout, dropped connections and unusable answers.
 *
 * @example
 * server.script(fault.rateLimited(0), when(isStory2, fault.malformed()));
 */
import { BEDROCK_ERROR_STATUS } from './bedrock-protocol.js';
import type { ErrorStep, Match, ScriptStep } from './script.js';

/** Script steps for the faults the adapter and the judge must survive. */
export const fault = {
  /** Any error status, in the API's error shape. */
  status: (
    status: number,
    options: Omit<ErrorStep, 'kind' | 'status' | 'match'> = {},
  ): ScriptStep => ({ kind: 'error', status, ...options }),
  /**
   * A Bedrock exception with the status Bedrock gives it (e.g. `ModelNotReadyException`,
   * 429); a Messages API request gets the status in the API's shape.
   */
  bedrock: (type: string, message?: string): ScriptStep => ({
    kind: 'error',
    status: BEDROCK_ERROR_STATUS[type] ?? 400,
    bedrockType: type,
    ...(message === undefined ? {} : { message }),
  }),
  /** 429 rate_limit_error with `retry-after` (seconds; fractions allowed for tests). */
  rateLimited: (retryAfterSeconds?: number): ScriptStep => ({
    kind: 'error',
    status: 429,
    message: 'Number of request tokens has exceeded your per-minute rate limit',
    headers: retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) },
  }),
  /** 529 overloaded_error. */
  overloaded: (): ScriptStep => ({ kind: 'error', status: 529, message: 'Overloaded' }),
  /** 500 api_error. */
  serverError: (): ScriptStep => ({ kind: 'error', status: 500, message: 'Internal server error' }),
  /** Answers only after `delayMs` (then `then`, or the responder's answer). */
  slow: (delayMs: number, then?: ScriptStep): ScriptStep => ({
    kind: 'slow',
    delayMs,
    ...(then === undefined ? {} : { then }),
  }),
  /** Closes the connection without an answer. */
  drop: (): ScriptStep => ({ kind: 'drop' }),
  /** A 200 answer with exactly this text. */
  text: (text: string, stopReason?: string): ScriptStep => ({
    kind: 'text',
    text,
    ...(stopReason === undefined ? {} : { stopReason }),
  }),
  /** A 200 answer with `value` as JSON text. */
  json: (value: unknown): ScriptStep => ({ kind: 'text', text: JSON.stringify(value) }),
  /** A 200 answer that is not JSON (a judge answer cut off mid-string). */
  malformed: (): ScriptStep => ({
    kind: 'text',
    text: 'Here is my evaluation: {"gestalt": 4, "reasoning": "The story is cle',
  }),
  /** A well-formed judge answer whose gestalt is outside 1–5. */
  outOfRange: (gestalt = 7): ScriptStep => ({
    kind: 'text',
    text: JSON.stringify({
      gestalt,
      reasoning: 'scripted answer with an out-of-range score',
      strengths: [],
      weaknesses: [],
    }),
  }),
};

/**
 * Restricts a step to the requests `match` accepts (e.g. one artefact's prompt), so that
 * concurrent requests take the faults meant for them.
 *
 * @example
 * server.script(when((request) => request.firstUserText.includes(' id=story_2\n'), fault.malformed()));
 */
export function when(match: Match, step: ScriptStep): ScriptStep {
  return { ...step, match };
}
