/**
 * ModelClient over the Anthropic Messages API (`@anthropic-ai/sdk`).
 *
 * The retry policy (which failures are retried, backoff, `retry-after`, per-try timeout,
 * the SDK's own retries off, the error mapping to ModelUnavailableError /
 * ModelRequestRejectedError) is shared with the Bedrock adapter and documented in
 * `model-retry.ts`.
 */
import Anthropic from '@anthropic-ai/sdk';
import { RalphError } from '../core/errors.js';
import type { ModelClient, ModelRequest, ModelResponse } from '../ports.js';
import { singleTryOptions, toMessageParams, toModelResponse } from './messages-api.js';
import { ModelRetryPolicy, type ModelRetryOptions } from './model-retry.js';

export {
  DEFAULT_MODEL_MAX_TRIES,
  ModelRequestRejectedError,
  ModelUnavailableError,
  type BackoffOptions,
} from './model-retry.js';

export interface AnthropicModelClientOptions extends ModelRetryOptions {
  /** Required unless `client` is given. Never read from the environment here. */
  apiKey?: string;
  /** Another endpoint speaking the Messages API, e.g. `local/model-server.ts`. @default 'https://api.anthropic.com' */
  baseURL?: string;
  /** A ready client (its own `maxRetries` is overridden per call with 0). */
  client?: Anthropic;
}

export const DEFAULT_ANTHROPIC_BASE_URL = 'https://api.anthropic.com';

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
  readonly #retry: ModelRetryPolicy;

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
    this.#retry = new ModelRetryPolicy(options);
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    const { value: message, attempts } = await this.#retry.run(request, () =>
      this.#client.messages.create(
        toMessageParams(request, request.model),
        singleTryOptions(request),
      ),
    );
    return toModelResponse(message, attempts, request.model);
  }
}
