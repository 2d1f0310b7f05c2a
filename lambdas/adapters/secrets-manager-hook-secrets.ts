import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { NewRelicCredential } from '../core/schemas/hook-secrets.js';
import type { HookSecrets } from '../ports.js';
import { keptUntilFailure } from './kept-until-failure.js';
import { readSecretString } from './secret-string.js';

export interface SecretsManagerHookSecretsOptions {
  readonly secrets: SecretsManagerClient;
  /** The secret whose text is the Sentry integration's client secret; none: Sentry is off. */
  readonly sentrySecretId?: string;
  /** The secret whose text is the New Relic token; none: New Relic is off. */
  readonly newRelicSecretId?: string;
  /**
   * The header New Relic's webhook carries the token in, as it is configured there (not a
   * secret). @default `Authorization: Bearer <token>`
   */
  readonly newRelicHeader?: string;
}

/**
 * The hook secrets of a deployed stack, each read from Secrets Manager on the first delivery
 * that needs it and kept for the container's life (a failed read is not kept).
 *
 * @example
 * const secrets = secretsManagerHookSecrets({ secrets: createSecretsClient({}), sentrySecretId: arn });
 */
export function secretsManagerHookSecrets(options: SecretsManagerHookSecretsOptions): HookSecrets {
  const read = (secretId: string | undefined, holds: string) =>
    keptUntilFailure(async () =>
      secretId === undefined ? undefined : readSecretString(options.secrets, secretId, holds),
    );
  const sentry = read(options.sentrySecretId, 'Sentry client secret');
  const newRelic = read(options.newRelicSecretId, 'New Relic token');
  return {
    sentryClientSecret: sentry,
    newRelicCredential: async (): Promise<NewRelicCredential | undefined> => {
      const token = await newRelic();
      if (token === undefined) return undefined;
      return options.newRelicHeader === undefined
        ? { kind: 'bearer', token }
        : { kind: 'header', header: options.newRelicHeader, value: token };
    },
  };
}
