/**
 * `<data dir>/hooks.json`: the webhook senders' secrets for the local stack (`ralph serve`),
 * where a deployment keeps them in Secrets Manager. Read on every delivery, so an edit takes
 * effect without a restart; a missing file means no source is set up.
 *
 * {"sentry": {"clientSecret": "…"}, "newrelic": {"kind": "bearer", "token": "…"}}
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  HookSecretsSchema,
  type HookSecretValues,
} from '../../lambdas/core/schemas/hook-secrets.js';
import { parseJsonText, parseOrThrow } from '../../lambdas/core/shared/validation.js';
import type { HookSecrets } from '../../lambdas/ports.js';

export const HOOK_SECRETS_FILE = 'hooks.json';

/** The file's secrets, checked; an invalid file is an InvalidInputError naming the file. */
export async function readHookSecretsFile(dataDir: string): Promise<HookSecretValues> {
  const path = join(dataDir, HOOK_SECRETS_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  return parseOrThrow(HookSecretsSchema, parseJsonText(text, path), path);
}

/**
 * @example
 * const secrets = fileHookSecrets(options.dataDir);
 * await secrets.sentryClientSecret(); // undefined until hooks.json names one
 */
export function fileHookSecrets(dataDir: string): HookSecrets {
  return {
    sentryClientSecret: async () => (await readHookSecretsFile(dataDir)).sentry?.clientSecret,
    newRelicCredential: async () => (await readHookSecretsFile(dataDir)).newrelic,
  };
}
