/**
 * A ModelClient built on its first call. The model SDKs are the heaviest modules a step
 * loads (`@anthropic-ai/sdk` and the Bedrock SDK add some 45 MB to a process), and most
 * steps, and most local runs, never call a model: loading them only when a call comes
 * keeps cold starts short and the local stack's process small (every subprocess the
 * runner starts forks that process, and a fork costs in proportion to its memory).
 */
import type { ModelClient, ModelRequest, ModelResponse } from '../ports.js';
import type { AnthropicModelClientOptions } from './anthropic.js';
import { keptUntilFailure } from './kept-until-failure.js';

/**
 * @example
 * const model = new LazyModelClient(async () => {
 *   const { AnthropicModelClient } = await import('./anthropic.js');
 *   return new AnthropicModelClient({ apiKey });
 * });
 */
export class LazyModelClient implements ModelClient {
  readonly #client: () => Promise<ModelClient>;

  constructor(connect: () => Promise<ModelClient>) {
    // A failed connect is not kept: the next call tries again.
    this.#client = keptUntilFailure(connect);
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    return (await this.#client()).complete(request);
  }
}

/** The Anthropic API adapter, its SDK loaded on the first call. */
export function lazyAnthropicModel(options: AnthropicModelClientOptions): LazyModelClient {
  return new LazyModelClient(async () => {
    const { AnthropicModelClient } = await import('./anthropic.js');
    return new AnthropicModelClient(options);
  });
}
