/**
 * A ModelClient built on its first call. The model SDKs are the heaviest modules a step
 * loads (`@anthropic-ai/sdk` and the Bedrock SDK add some 45 MB to a process), and most
 * steps, and most local runs, never call a model: loading them only when a call comes
 * keeps cold starts short and the local stack's process small (every subprocess the
 * runner starts forks that process, and a fork costs in proportion to its memory).
 */
import type { ModelClient, ModelRequest, ModelResponse } from '../ports.js';
import type { AnthropicModelClientOptions } from './anthropic.js';

/**
 * @example
 * const model = new LazyModelClient(async () => {
 *   const { AnthropicModelClient } = await import('./anthropic.js');
 *   return new AnthropicModelClient({ apiKey });
 * });
 */
export class LazyModelClient implements ModelClient {
  #client: Promise<ModelClient> | undefined;

  constructor(private readonly connect: () => Promise<ModelClient>) {}

  async complete(request: ModelRequest): Promise<ModelResponse> {
    // A failed connect is not kept: the next call tries again.
    this.#client ??= this.connect().catch((error: unknown) => {
      this.#client = undefined;
      throw error;
    });
    return (await this.#client).complete(request);
  }
}

/** The Anthropic API adapter, its SDK loaded on the first call. */
export function lazyAnthropicModel(options: AnthropicModelClientOptions): LazyModelClient {
  return new LazyModelClient(async () => {
    const { AnthropicModelClient } = await import('./anthropic.js');
    return new AnthropicModelClient(options);
  });
}
