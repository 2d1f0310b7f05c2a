import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { ModelClient, ModelRequest, ModelResponse } from '../ports.js';
import { AnthropicModelClient } from './anthropic.js';

/**
 * The Anthropic client of a deployed Lambda, its API key read from Secrets Manager on the
 * first call (not at cold start: a run that does not evaluate never needs it) and kept for
 * the container's life. A failed read is not cached, so the next call tries again.
 */
export class SecretKeyModelClient implements ModelClient {
  #client: Promise<ModelClient> | undefined;

  constructor(
    private readonly secrets: SecretsManagerClient,
    private readonly secretId: string,
  ) {}

  async complete(request: ModelRequest): Promise<ModelResponse> {
    this.#client ??= this.#connect().catch((error: unknown) => {
      this.#client = undefined;
      throw error;
    });
    return (await this.#client).complete(request);
  }

  async #connect(): Promise<ModelClient> {
    const secret = await this.secrets.send(new GetSecretValueCommand({ SecretId: this.secretId }));
    const apiKey = secret.SecretString?.trim();
    if (!apiKey)
      throw new Error(`secret ${this.secretId} holds no API key (SecretString is empty)`);
    return new AnthropicModelClient({ apiKey });
  }
}
