import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { LazyModelClient } from './lazy-model-client.js';
import { readSecretString } from './secret-string.js';

/**
 * The Anthropic client of a deployed Lambda, its API key read from Secrets Manager on the
 * first call (not at cold start: a run that does not evaluate never needs it) and kept for
 * the container's life. A failed read is not kept, so the next call tries again.
 *
 * @example
 * const model = secretKeyModelClient(createSecretsClient({}), process.env.ANTHROPIC_API_KEY_SECRET_ARN!);
 */
export function secretKeyModelClient(
  secrets: SecretsManagerClient,
  secretId: string,
  options: { baseURL?: string } = {},
): LazyModelClient {
  return new LazyModelClient(async () => {
    const apiKey = await readSecretString(secrets, secretId, 'API key');
    const { AnthropicModelClient } = await import('./anthropic.js');
    return new AnthropicModelClient({ apiKey, ...options });
  });
}
