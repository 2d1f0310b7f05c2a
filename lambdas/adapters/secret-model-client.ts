import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { ConfigurationError } from '../core/errors.js';
import { LazyModelClient } from './lazy-model-client.js';

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
    const secret = await secrets.send(new GetSecretValueCommand({ SecretId: secretId }));
    const apiKey = secret.SecretString?.trim();
    if (!apiKey)
      throw new ConfigurationError(`secret ${secretId} holds no API key (SecretString is empty)`);
    const { AnthropicModelClient } = await import('./anthropic.js');
    return new AnthropicModelClient({ apiKey, ...options });
  });
}
