/**
 * The retry policy shared by the model adapters (`anthropic.ts`, `bedrock.ts`): both speak
 * the Messages API through a client built on `@anthropic-ai/sdk`'s `BaseAnthropic`, so both
 * fail with the same error classes and differ only in how an HTTP error body names itself.
 *
 * Retries are ours, not the SDK's: every call is made with `maxRetries: 0`, so the SDK
 * makes exactly one HTTP try and this policy decides whether to make another. The SDK's
 * own policy (retry 408 / 409 / 429 / 5xx and connection errors, `x-should-retry`,
 * `retry-after[-ms]`, backoff 0.5 s × 2ⁿ capped at 8 s) is close, but it would hide the
 * number of tries (`ModelResponse.attempts`), it retries 409, and its backoff cannot be
 * configured (tests would sleep for seconds). Doing both would multiply the tries.
 *
 * Policy: up to `maxTries` tries, each bounded by the request's `timeoutMs`. Retried:
 * 408, 429, 5xx (529 overloaded included), connection errors and timeouts, after an
 * exponential backoff with jitter, or after the server's `retry-after` when that is longer.
 * A `retry-after` beyond `maxRetryAfterMs` ends the call at once: waiting it out inside a
 * Lambda is worse than failing the step, which Step Functions retries later. Final
 * failures throw ModelUnavailableError (a TransientError); other 4xx throw
 * ModelRequestRejectedError (a RalphError with code MODEL_REQUEST_REJECTED). The status
 * decides: `x-should-retry` is not read, and neither is the error's type name.
 */
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AnthropicError,
} from '@anthropic-ai/sdk';
import { RalphError, RetriesExhaustedError } from '../core/errors.js';

export interface BackoffOptions {
  /** Delay before the second try; doubles each try. @default 1000 */
  initialDelayMs?: number;
  /** @default 16000 */
  maxDelayMs?: number;
  /** @default 2 */
  multiplier?: number;
}

export interface ModelRetryOptions {
  /** Tries per call, the first included. @default 3 */
  maxTries?: number;
  backoff?: BackoffOptions;
  /** The longest `retry-after` waited out; a longer one fails the call at once. @default 60000 */
  maxRetryAfterMs?: number;
  /** Jitter source in [0, 1). @default Math.random */
  random?: () => number;
}

/** The model stayed unavailable (or did not answer in time) through every try. */
export class ModelUnavailableError extends RetriesExhaustedError {}

/** The API refused the request (a 4xx other than 408 / 429): retrying cannot help. */
export class ModelRequestRejectedError extends RalphError {
  readonly status: number | undefined;

  constructor(message: string, status: number | undefined, options?: ErrorOptions) {
    super(message, { ...options, code: 'MODEL_REQUEST_REJECTED' });
    this.name = 'ModelRequestRejectedError';
    this.status = status;
  }
}

/** How an API's error body names the error, for messages only (the status decides). */
export interface ApiErrorText {
  /** e.g. `rate_limit_error` (Anthropic) or `ThrottlingException` (Bedrock). */
  type: string | undefined;
  message: string;
}

export type ApiErrorReader = (error: APIError) => ApiErrorText;

/** The Anthropic API's error body: `{ type: 'error', error: { type, message } }`. */
export const readAnthropicError: ApiErrorReader = (error) => ({
  type: error.type ?? undefined,
  message: error.apiMessage ?? error.message,
});

/** What one call is, for the policy: its name in messages, its per-try bound, its abort. */
export interface ModelCall {
  /** How messages name the model, e.g. `claude-sonnet-4-6`. */
  model: string;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

export const DEFAULT_MODEL_MAX_TRIES = 3;
const DEFAULT_BACKOFF: Required<BackoffOptions> = {
  initialDelayMs: 1_000,
  maxDelayMs: 16_000,
  multiplier: 2,
};
const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;

type Failure =
  | { kind: 'retry'; status?: number; retryAfterMs?: number; description: string }
  | { kind: 'reject'; status?: number; description: string }
  | { kind: 'aborted'; description: string };

/**
 * Runs one model call under the policy above.
 *
 * @example
 * const retry = new ModelRetryPolicy({ backoff: { initialDelayMs: 5 } });
 * const { value, attempts } = await retry.run(
 *   { model: 'claude-sonnet-4-6', timeoutMs: 30_000 },
 *   () => client.messages.create(params, { maxRetries: 0, timeout: 30_000 }),
 * );
 */
export class ModelRetryPolicy {
  readonly #maxTries: number;
  readonly #backoff: Required<BackoffOptions>;
  readonly #maxRetryAfterMs: number;
  readonly #random: () => number;
  readonly #readError: ApiErrorReader;

  constructor(options: ModelRetryOptions = {}, readError: ApiErrorReader = readAnthropicError) {
    this.#maxTries = Math.max(1, Math.floor(options.maxTries ?? DEFAULT_MODEL_MAX_TRIES));
    this.#backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
    this.#maxRetryAfterMs = options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
    this.#random = options.random ?? Math.random;
    this.#readError = readError;
  }

  /** `attempt` counts from 1; the result carries the number of tries made. */
  async run<T>(
    call: ModelCall,
    attemptOnce: (attempt: number) => Promise<T>,
  ): Promise<{ value: T; attempts: number }> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return { value: await attemptOnce(attempt), attempts: attempt };
      } catch (error) {
        const failure = classify(error, call.timeoutMs, this.#readError);
        if (failure.kind === 'reject')
          throw new ModelRequestRejectedError(
            `model ${call.model} refused the request: ${failure.description}`,
            failure.status,
            { cause: error },
          );
        if (failure.kind === 'aborted')
          throw new ModelUnavailableError(
            `model ${call.model} call aborted after ${attempt} ${tries(attempt)}`,
            { attempts: attempt },
            { cause: error },
          );
        if (attempt >= this.#maxTries)
          throw new ModelUnavailableError(
            `model ${call.model} unavailable after ${attempt} ${tries(attempt)}: ${failure.description}`,
            { status: failure.status, attempts: attempt },
            { cause: error },
          );
        if (failure.retryAfterMs !== undefined && failure.retryAfterMs > this.#maxRetryAfterMs)
          throw new ModelUnavailableError(
            `model ${call.model} unavailable: ${failure.description}; the server asks to retry after ${Math.ceil(failure.retryAfterMs / 1000)} s, more than the ${Math.ceil(this.#maxRetryAfterMs / 1000)} s this call may wait`,
            { status: failure.status, attempts: attempt },
            { cause: error },
          );
        const delayMs = Math.max(this.#backoffMs(attempt), failure.retryAfterMs ?? 0);
        try {
          await sleep(delayMs, call.signal);
        } catch (abort) {
          throw new ModelUnavailableError(
            `model ${call.model} call aborted while waiting to retry`,
            { status: failure.status, attempts: attempt },
            { cause: abort },
          );
        }
      }
    }
  }

  /** Exponential, with "equal jitter": half the delay fixed, half random. */
  #backoffMs(attempt: number): number {
    const { initialDelayMs, maxDelayMs, multiplier } = this.#backoff;
    const ceiling = Math.min(maxDelayMs, initialDelayMs * multiplier ** (attempt - 1));
    return ceiling / 2 + (ceiling / 2) * this.#random();
  }
}

function classify(error: unknown, timeoutMs: number, readError: ApiErrorReader): Failure {
  // APIUserAbortError and APIConnectionError are APIErrors without a status: test them first.
  if (error instanceof APIUserAbortError) return { kind: 'aborted', description: 'aborted' };
  if (error instanceof APIConnectionError) {
    return {
      kind: 'retry',
      description:
        error instanceof APIConnectionTimeoutError
          ? `no answer within ${timeoutMs} ms`
          : `connection failed (${describeCause(error)})`,
    };
  }
  if (error instanceof APIError) {
    const status = error.status;
    const text = readError(error);
    const description = `${status ?? 'no status'} ${text.type ?? 'error'}: ${text.message}`;
    if (status === undefined || status === 408 || status === 429 || status >= 500)
      return {
        kind: 'retry',
        ...(status === undefined ? {} : { status }),
        ...retryAfter(error.headers),
        description,
      };
    return { kind: 'reject', status, description };
  }
  if (error instanceof AnthropicError)
    // Raised by the SDK before sending (an invalid option): the request itself is wrong.
    return { kind: 'reject', description: error.message };
  throw error;
}

/** `retry-after-ms`, else `retry-after` in seconds or as an HTTP date. */
function retryAfter(headers: Headers | undefined): { retryAfterMs?: number } {
  const milliseconds = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return { retryAfterMs: milliseconds };
  const value = headers?.get('retry-after');
  if (!value) return {};
  const seconds = Number.parseFloat(value);
  if (Number.isFinite(seconds) && seconds >= 0) return { retryAfterMs: seconds * 1000 };
  const date = Date.parse(value);
  return Number.isNaN(date) ? {} : { retryAfterMs: Math.max(0, date - Date.now()) };
}

function describeCause(error: Error): string {
  const cause = error.cause;
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code ?? (cause.cause as { code?: unknown })?.code;
    return typeof code === 'string' ? `${cause.message}, ${code}` : cause.message;
  }
  return error.message;
}

function tries(count: number): string {
  return count === 1 ? 'try' : 'tries';
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
