import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { ConfigurationError } from '../core/errors.js';

/**
 * A secret's text, trimmed. The client's own retry (aws-clients.ts: timeouts, bounded
 * attempts with backoff) covers a passing failure; an empty secret is a deployment mistake,
 * named with the secret and what it should hold.
 *
 * @example
 * const apiKey = await readSecretString(createSecretsClient({}), secretArn, 'an API key');
 */
export async function readSecretString(
  secrets: SecretsManagerClient,
  secretId: string,
  holds: string,
): Promise<string> {
  const secret = await secrets.send(new GetSecretValueCommand({ SecretId: secretId }));
  const text = secret.SecretString?.trim();
  if (!text)
    throw new ConfigurationError(`secret ${secretId} holds no ${holds} (SecretString is empty)`);
  return text;
}
