import { anthropicBaseUrl } from '../lambdas/adapters/anthropic-base-url.js';
import { lazyAnthropicModel } from '../lambdas/adapters/lazy-model-client.js';
import type { ModelClient, ModelRequest, ModelResponse } from '../lambdas/ports.js';
import { OFFLINE_JUDGE_LABEL } from './offline-judge/labels.js';
import { startModelServer, type ModelServer } from './model-server/server.js';

/** The judge and proposer of a local run, and how to say which it is. */
export interface LocalModel {
  model: ModelClient;
  /** For the first line of output: a real model, or the offline stand-in. */
  label: string;
  offline: boolean;
  stop(): Promise<void>;
}

/**
 * With ANTHROPIC_API_KEY, the Anthropic API; without, the offline judge served over the
 * Messages API by the local model server, started on the first call (a run that does not
 * evaluate never starts it). Either way the same adapter speaks to it.
 */
export function localModel(env: NodeJS.ProcessEnv = process.env): LocalModel {
  const apiKey = env.ANTHROPIC_API_KEY;
  if (apiKey)
    return {
      model: lazyAnthropicModel({ apiKey, ...anthropicBaseUrl(env) }),
      label: env.ANTHROPIC_BASE_URL
        ? `Anthropic API at ${env.ANTHROPIC_BASE_URL} (ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL are set)`
        : 'Anthropic API (ANTHROPIC_API_KEY is set)',
      offline: false,
      stop: async () => undefined,
    };
  const offline = new OfflineModel();
  return {
    model: offline,
    label: `${OFFLINE_JUDGE_LABEL} (set ANTHROPIC_API_KEY for the real model)`,
    offline: true,
    stop: () => offline.stop(),
  };
}

class OfflineModel implements ModelClient {
  #server: Promise<{ server: ModelServer; client: ModelClient }> | undefined;

  async complete(request: ModelRequest): Promise<ModelResponse> {
    this.#server ??= startModelServer().then((server) => ({
      server,
      client: lazyAnthropicModel({ apiKey: 'offline', baseURL: server.url }),
    }));
    return (await this.#server).client.complete(request);
  }

  async stop(): Promise<void> {
    const started = this.#server;
    this.#server = undefined;
    if (started) await (await started).server.stop();
  }
}
