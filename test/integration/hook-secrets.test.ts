import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretsClient } from '../../lambdas/adapters/aws-clients.js';
import { secretsManagerHookSecrets } from '../../lambdas/adapters/secrets-manager-hook-secrets.js';
import { ConfigurationError, InvalidInputError } from '../../lambdas/core/errors.js';
import { fileHookSecrets, HOOK_SECRETS_FILE } from '../../local/api-server/hook-secrets-file.js';
import {
  startSecretsManagerStandIn,
  type SecretsManagerStandIn,
} from '../support/aws-stand-ins.js';

describe('secretsManagerHookSecrets', () => {
  let standIn: SecretsManagerStandIn;
  const client = (maxAttempts: number) =>
    createSecretsClient({
      endpoint: standIn.url,
      region: 'eu-west-1',
      credentials: { accessKeyId: 'AKIDHOOKS', secretAccessKey: 'stand-in' },
      maxAttempts,
    });

  beforeAll(async () => {
    standIn = await startSecretsManagerStandIn({
      'ralph/sentry': 'sentry-client-secret\n',
      'ralph/newrelic': 'nr-token',
      'ralph/empty': '',
    });
  });
  afterAll(async () => {
    await standIn.close();
  });

  it('reads each secret on first use and keeps it', async () => {
    // Prepare
    const secrets = secretsManagerHookSecrets({
      secrets: client(1),
      sentrySecretId: 'ralph/sentry',
      newRelicSecretId: 'ralph/newrelic',
    });
    const before = standIn.seen.length;
    // Act
    const sentry = await secrets.sentryClientSecret();
    const again = await secrets.sentryClientSecret();
    const newRelic = await secrets.newRelicCredential();
    // Assess
    expect(sentry).toBe('sentry-client-secret');
    expect(again).toBe(sentry);
    expect(newRelic).toEqual({ kind: 'bearer', token: 'nr-token' });
    expect(standIn.seen.slice(before)).toHaveLength(2);
    expect(standIn.seen.at(-1)).toMatchObject({
      signedBy: 'AKIDHOOKS',
      form: { target: 'secretsmanager.GetSecretValue' },
    });
  });

  it('puts the New Relic token in the configured header', async () => {
    const secrets = secretsManagerHookSecrets({
      secrets: client(1),
      newRelicSecretId: 'ralph/newrelic',
      newRelicHeader: 'X-Ralph-Token',
    });
    expect(await secrets.newRelicCredential()).toEqual({
      kind: 'header',
      header: 'X-Ralph-Token',
      value: 'nr-token',
    });
    expect(await secrets.sentryClientSecret()).toBeUndefined();
  });

  it('retries a failing service, and does not keep a failed read', async () => {
    const secrets = secretsManagerHookSecrets({
      secrets: client(2),
      sentrySecretId: 'ralph/sentry',
    });
    standIn.failNext(1);
    expect(await secrets.sentryClientSecret()).toBe('sentry-client-secret');

    const once = secretsManagerHookSecrets({ secrets: client(1), sentrySecretId: 'ralph/sentry' });
    standIn.failNext(1);
    await expect(once.sentryClientSecret()).rejects.toThrow();
    expect(await once.sentryClientSecret()).toBe('sentry-client-secret');
  });

  it('names an empty secret as a configuration mistake', async () => {
    const secrets = secretsManagerHookSecrets({
      secrets: client(1),
      sentrySecretId: 'ralph/empty',
    });
    const read = secrets.sentryClientSecret();
    await expect(read).rejects.toThrow(ConfigurationError);
    await expect(read).rejects.toThrow(/ralph\/empty holds no Sentry client secret/);
  });
});

describe('fileHookSecrets', () => {
  let dataDir = '';
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'ralph-hook-secrets-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers nothing set up while the data dir has no hooks.json', async () => {
    const secrets = fileHookSecrets(dataDir);
    expect(await secrets.sentryClientSecret()).toBeUndefined();
    expect(await secrets.newRelicCredential()).toBeUndefined();
  });

  it('reads the file on each use, so an edit counts without a restart', async () => {
    const secrets = fileHookSecrets(dataDir);
    const path = join(dataDir, HOOK_SECRETS_FILE);
    await writeFile(path, JSON.stringify({ sentry: { clientSecret: 'first' } }));
    expect(await secrets.sentryClientSecret()).toBe('first');
    await writeFile(
      path,
      JSON.stringify({
        sentry: { clientSecret: 'second' },
        newrelic: { kind: 'header', header: 'X-Ralph-Token', value: 'nr' },
      }),
    );
    expect(await secrets.sentryClientSecret()).toBe('second');
    expect(await secrets.newRelicCredential()).toEqual({
      kind: 'header',
      header: 'X-Ralph-Token',
      value: 'nr',
    });
  });

  it('names the file and the field of an invalid hooks.json', async () => {
    const path = join(dataDir, HOOK_SECRETS_FILE);
    await writeFile(path, JSON.stringify({ newrelic: { kind: 'bearer', tokne: 'nr' } }));
    const read = fileHookSecrets(dataDir).newRelicCredential();
    await expect(read).rejects.toThrow(InvalidInputError);
    await expect(read).rejects.toThrow(path);
    await expect(read).rejects.toThrow(/newrelic/);
  });
});
