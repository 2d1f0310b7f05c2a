/**
 * ModelClient over the Anthropic Messages API (`@anthropic-ai/sdk`).
 *
 * Retries are ours, not the SDK's: every call is made with `maxRetries: 0`, so the SDK
 * makes exactly one HTTP try and this adapter decides whether to make another. The SDK's
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
 * decides: `x-should-retry` is not read.
 */
import Anthropic, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AnthropicError,
} from '@anthropic-ai/sdk';
import { RalphError, TransientError } from '../core/errors.js';
import type { ModelClient, ModelRequest, ModelResponse } from '../ports.js';

export interface BackoffOptions {
  /** Delay before the second try; doubles each try. @default 1000 */
  initialDelayMs?: number;
  /** @default 16000 */
  maxDelayMs?: number;
  /** @default 2 */
  multiplier?: number;
}

export interface AnthropicModelClientOptions {
  /** Required unless `client` is given. Never read from the environment here. */
  apiKey?: string;
  /** Another endpoint speaking the Messages API, e.g. `local/model-server.ts`. @default 'https://api.anthropic.com' */
  baseURL?: string;
  /** A ready client (its own `maxRetries` is overridden per call with 0). */
  client?: Anthropic;
  /** Tries per call, the first included. @default 3 */
  maxTries?: number;
  backoff?: BackoffOptions;
  /** The longest `retry-after` waited out; a longer one fails the call at once. @default 60000 */
  maxRetryAfterMs?: number;
  /** Jitter source in [0, 1). @default Math.random */
  random?: () => number;
}

/** The model stayed unavailable (or did not answer in time) through every try. */
export class ModelUnavailableError extends TransientError {
  /** The last HTTP status; undefined for a timeout or a connection failure. */
  readonly status: number | undefined;
  readonly attempts: number;

  constructor(
    message: string,
    details: { status?: number | undefined; attempts: number },
    options?: ErrorOptions,
  ) {
    super(message, options);
    // `name` stays 'TransientError': Step Functions Retry matches on it.
    this.status = details.status;
    this.attempts = details.attempts;
  }
}

/** The API refused the request (a 4xx other than 408 / 429): retrying cannot help. */
export class ModelRequestRejectedError extends RalphError {
  readonly status: number | undefined;

  constructor(message: string, status: number | undefined, options?: ErrorOptions) {
    super(message, { ...options, code: 'MODEL_REQUEST_REJECTED' });
    this.name = 'ModelRequestRejectedError';
    this.status = status;
  }
}

export const DEFAULT_MODEL_MAX_TRIES = 3;
export const DEFAULT_ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
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
 * @example
 * const model = new AnthropicModelClient({ apiKey: process.env.ANTHROPIC_API_KEY! });
 * const answer = await model.complete({
 *   model: 'claude-sonnet-4-6',
 *   system: 'Answer in one word.',
 *   messages: [{ role: 'user', content: 'Capital of France?' }],
 *   maxTokens: 16,
 *   timeoutMs: 30_000,
 * });
 * answer.text; // 'Paris'
 *
 * // Against the local model double, with short backoff:
 * new AnthropicModelClient({ apiKey: 'offline', baseURL: server.url, backoff: { initialDelayMs: 5 } });
 */
export class AnthropicModelClient implements ModelClient {
  readonly #client: Anthropic;
  readonly #maxTries: number;
  readonly #backoff: Required<BackoffOptions>;
  readonly #maxRetryAfterMs: number;
  readonly #random: () => number;

  constructor(options: AnthropicModelClientOptions) {
    if (options.client === undefined && !options.apiKey)
      throw new RalphError('AnthropicModelClient needs an apiKey or a client', {
        code: 'INVALID_INPUT',
      });
    this.#client =
      options.client ??
      new Anthropic({
        apiKey: options.apiKey ?? null,
        // Explicit, so the SDK does not fall back to ANTHROPIC_BASE_URL behind our back:
        // configuration is read once, in the handler.
        baseURL: options.baseURL ?? DEFAULT_ANTHROPIC_BASE_URL,
        maxRetries: 0,
      });
    this.#maxTries = Math.max(1, Math.floor(options.maxTries ?? DEFAULT_MODEL_MAX_TRIES));
    this.#backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
    this.#maxRetryAfterMs = options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
    this.#random = options.random ?? Math.random;
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const message = await this.#client.messages.create(
          {
            model: request.model,
            max_tokens: request.maxTokens,
            messages: request.messages,
            ...(request.system === '' ? {} : { system: request.system }),
            ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
          },
          {
            maxRetries: 0,
            timeout: Math.max(1, Math.ceil(request.timeoutMs)),
            ...(request.signal === undefined ? {} : { signal: request.signal }),
          },
        );
        return {
          text: message.content
            .flatMap((block) => (block.type === 'text' ? [block.text] : []))
            .join(''),
          model: message.model,
          stopReason: message.stop_reason ?? null,
          usage: {
            inputTokens: message.usage.input_tokens,
            outputTokens: message.usage.output_tokens,
          },
          attempts: attempt,
        };
      } catch (error) {
        const failure = classify(error, request.timeoutMs);
        if (failure.kind === 'reject')
          throw new ModelRequestRejectedError(
            `model ${request.model} refused the request: ${failure.description}`,
            failure.status,
            { cause: error },
          );
        if (failure.kind === 'aborted')
          throw new ModelUnavailableError(
            `model ${request.model} call aborted after ${attempt} ${tries(attempt)}`,
            { attempts: attempt },
            { cause: error },
          );
        if (attempt >= this.#maxTries)
          throw new ModelUnavailableError(
            `model ${request.model} unavailable after ${attempt} ${tries(attempt)}: ${failure.description}`,
            { status: failure.status, attempts: attempt },
            { cause: error },
          );
        if (failure.retryAfterMs !== undefined && failure.retryAfterMs > this.#maxRetryAfterMs)
          throw new ModelUnavailableError(
            `model ${request.model} unavailable: ${failure.description}; the server asks to retry after ${Math.ceil(failure.retryAfterMs / 1000)} s, more than the ${Math.ceil(this.#maxRetryAfterMs / 1000)} s this call may wait`,
            { status: failure.status, attempts: attempt },
            { cause: error },
          );
        const delayMs = Math.max(this.#backoffMs(attempt), failure.retryAfterMs ?? 0);
        try {
          await sleep(delayMs, request.signal);
        } catch (abort) {
          throw new ModelUnavailableError(
            `model ${request.model} call aborted while waiting to retry`,
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

function classify(error: unknown, timeoutMs: number): Failure {
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
    const description = `${status ?? 'no status'} ${error.type ?? 'error'}: ${error.apiMessage ?? error.message}`;
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
