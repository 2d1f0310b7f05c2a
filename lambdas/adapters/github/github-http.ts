/**
 * One GitHub REST call over `fetch`, under the adapter's retry policy: every try bounded by
 * `timeoutMs`; 5xx, network errors, timeouts and rate limits (`rateLimitWaitMs`) retried up
 * to `maxTries` after an exponential backoff with jitter, or after the wait GitHub asks for
 * when that is longer; a wait longer than `maxRateLimitWaitMs` fails the call at once.
 * Other answers (2xx, and 4xx that are no rate limit) are returned for the caller to read:
 * only it knows which 422 is an answer ("already exists") and which a refusal.
 */
import { CodeHostRejectedError, CodeHostUnavailableError } from '../../core/errors.js';
import type { Clock } from '../../ports.js';
import { sleep } from '../backoff.js';
import type { GitHubConfig } from './github-config.js';
import { errorMessages } from './github-responses.js';
import { rateLimitWaitMs } from './rate-limit.js';

export interface GitHubAnswer {
  status: number;
  /** Parsed JSON, or the text when it is not JSON. */
  body: unknown;
  headers: Headers;
  /** `METHOD /path`, for messages. */
  where: string;
}

export interface GitHubCall {
  /** What is being done, for messages: `open a pull request in o/r`. */
  operation: string;
  method: 'GET' | 'POST';
  /** From the API base, query included: `/repos/o/r/pulls?state=open`. */
  path: string;
  /** The bearer token (an installation token, a plain token, or the App's JWT). */
  token: string;
  body?: unknown;
}

type TryOutcome =
  | { kind: 'answer'; answer: GitHubAnswer }
  | { kind: 'retry'; status?: number; waitMs?: number; description: string };

export class GitHubHttp {
  readonly #config: GitHubConfig;
  readonly #clock: Clock;
  readonly #random: () => number;

  constructor(config: GitHubConfig, options: { clock: Clock; random?: () => number }) {
    this.#config = config;
    this.#clock = options.clock;
    this.#random = options.random ?? Math.random;
  }

  /**
   * Makes the call, retrying as above; returns the first answer that is not retried.
   *
   * @example
   * const answer = await http.call({ operation: 'read o/r', method: 'GET', path: '/repos/o/r', token });
   */
  async call(call: GitHubCall): Promise<GitHubAnswer> {
    const where = `${call.method} ${call.path.split('?')[0]}`;
    for (let attempt = 1; ; attempt += 1) {
      const outcome = await this.#tryOnce(call, where);
      if (outcome.kind === 'answer') return outcome.answer;
      const details = { status: outcome.status, attempts: attempt };
      if (attempt >= this.#config.maxTries)
        throw new CodeHostUnavailableError(
          `${call.operation} failed: GitHub unavailable after ${attempt} ${attempt === 1 ? 'try' : 'tries'} (${where}): ${outcome.description}`,
          details,
        );
      const waitMs = outcome.waitMs ?? 0;
      if (waitMs > this.#config.maxRateLimitWaitMs)
        throw new CodeHostUnavailableError(
          `${call.operation} failed: GitHub rate-limited ${where} and asks to wait ${Math.ceil(waitMs / 1000)} s, more than the ${Math.ceil(this.#config.maxRateLimitWaitMs / 1000)} s a call may wait: ${outcome.description}`,
          details,
        );
      await sleep(Math.max(this.#backoffMs(attempt), waitMs));
    }
  }

  async #tryOnce(call: GitHubCall, where: string): Promise<TryOutcome> {
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${this.#config.apiBaseUrl.replace(/\/+$/, '')}${call.path}`, {
        method: call.method,
        headers: {
          accept: 'application/vnd.github+json',
          'x-github-api-version': '2022-11-28',
          'user-agent': this.#config.userAgent,
          authorization: `Bearer ${call.token}`,
          ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
        signal: AbortSignal.timeout(this.#config.timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      return { kind: 'retry', description: describeFailure(error, this.#config.timeoutMs) };
    }
    const answer = {
      status: response.status,
      body: parseBody(text),
      headers: response.headers,
      where,
    };
    const message = errorMessages(answer.body).join('; ');
    const description = `${response.status}${message === '' ? '' : ` ${message}`}`;
    if (response.status >= 500) return { kind: 'retry', status: response.status, description };
    const waitMs = rateLimitWaitMs(
      response.status,
      response.headers,
      message,
      this.#clock.now(),
      this.#config.secondaryRateLimitWaitMs,
    );
    if (waitMs !== undefined)
      return { kind: 'retry', status: response.status, waitMs, description };
    return { kind: 'answer', answer };
  }

  /** Exponential with "equal jitter": half the delay fixed, half random. */
  #backoffMs(attempt: number): number {
    const { initialBackoffMs, maxBackoffMs } = this.#config;
    const ceiling = Math.min(maxBackoffMs, initialBackoffMs * 2 ** (attempt - 1));
    return ceiling / 2 + (ceiling / 2) * this.#random();
  }
}

/**
 * The refusal an answer the caller cannot use becomes: GitHub's own messages, never the
 * request's headers (which hold the token).
 *
 * @example
 * throw refused('open a pull request in o/r', answer);
 */
export function refused(operation: string, answer: GitHubAnswer): CodeHostRejectedError {
  const messages = errorMessages(answer.body);
  return new CodeHostRejectedError({
    status: answer.status,
    operation,
    where: answer.where,
    reason: messages.length === 0 ? 'no message' : messages.join('; '),
  });
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === 'TimeoutError')
    return `no answer within ${timeoutMs} ms`;
  const cause =
    error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  const code = typeof cause?.code === 'string' ? `, ${cause.code}` : '';
  return `connection failed (${error instanceof Error ? error.message : String(error)}${code})`;
}
