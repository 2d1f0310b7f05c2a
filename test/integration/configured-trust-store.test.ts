/**
 * The deployed trust store: the configured publishers' keys, each public key read from KMS
 * (the stand-in) once; nothing added at run time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKmsClient } from '../../lambdas/adapters/aws-clients.js';
import { ConfiguredTrustStore } from '../../lambdas/adapters/sharing/configured-trust-store.js';
import { KmsPublicKeys } from '../../lambdas/adapters/sharing/kms-public-keys.js';
import { parseTrustedPublishers } from '../../lambdas/adapters/sharing/trusted-publishers.js';
import { ConfigurationError, InvalidInputError } from '../../lambdas/core/errors.js';
import { TrustedKeySchema } from '../../lambdas/core/schemas/sharing.js';
import { standInKeyArn, startKmsStandIn, type KmsStandIn } from '../support/kms-stand-in.js';

const NOW = new Date('2026-11-27T08:00:00.000Z');

describe('Class: ConfiguredTrustStore', () => {
  const keyArn = standInKeyArn('111122223333');
  const otherArn = standInKeyArn('444455556666');
  let kms: KmsStandIn;
  const store = () =>
    new ConfiguredTrustStore({
      publishers: [
        { account: '111122223333', keyArn, bucket: 'publisher-one' },
        { account: '444455556666', keyArn: otherArn, bucket: 'publisher-two' },
      ],
      publicKeys: new KmsPublicKeys(
        createKmsClient({
          endpoint: kms.url,
          region: 'eu-west-1',
          credentials: { accessKeyId: 'AKIDTRUST', secretAccessKey: 'stand-in' },
          maxAttempts: 1,
        }),
      ),
      clock: { now: () => NOW },
    });

  beforeAll(async () => {
    kms = await startKmsStandIn([keyArn, otherArn]);
  });
  afterAll(async () => {
    await kms.close();
  });

  it("finds a configured key with KMS's public key, asking KMS once", async () => {
    // Prepare
    const trust = store();
    const before = kms.calls.length;

    // Act
    const found = await trust.find(keyArn);
    const again = await trust.find(keyArn);

    // Assess
    expect(TrustedKeySchema.parse(found)).toEqual({
      keyId: keyArn,
      publicKey: kms.keys.get(keyArn)!.publicKeyDer.toString('base64'),
      account: '111122223333',
      addedAt: NOW.toISOString(),
    });
    expect(again).toEqual(found);
    expect(kms.calls.slice(before).map((call) => call.operation)).toEqual(['GetPublicKey']);
  });

  it('knows no key and no account beyond its configuration', async () => {
    // Prepare
    const trust = store();
    const before = kms.calls.length;

    // Act
    const unknown = await trust.find(standInKeyArn('111122223333'));

    // Assess
    expect(unknown).toBeUndefined();
    expect(kms.calls.length).toBe(before);
    expect(trust.isTrustedAccount('444455556666')).toBe(true);
    expect(trust.isTrustedAccount('999999999999')).toBe(false);
  });

  it('lists every configured key', async () => {
    // Act
    const keys = await store().list();

    // Assess
    expect(keys.map((key) => key.keyId)).toEqual([keyArn, otherArn]);
  });

  it('refuses to trust a key at run time, saying where trust is configured', async () => {
    // Prepare
    const key = (await store().list())[0]!;

    // Act
    const failure = store().add({ ...key, keyId: standInKeyArn() });

    // Assess
    await expect(failure).rejects.toBeInstanceOf(ConfigurationError);
    await expect(failure).rejects.toThrow('ralph:sharingTrustedPublishers');
  });
});

describe('Function: parseTrustedPublishers', () => {
  it('reads the publishers of the configuration', () => {
    // Act
    const publishers = parseTrustedPublishers(
      '[{"account":"111122223333","keyArn":"arn:aws:kms:eu-west-1:111122223333:key/k-1","bucket":"pub-one"}]',
      'TRUSTED_PUBLISHERS',
    );

    // Assess
    expect(publishers).toEqual([
      {
        account: '111122223333',
        keyArn: 'arn:aws:kms:eu-west-1:111122223333:key/k-1',
        bucket: 'pub-one',
      },
    ]);
  });

  it.each([
    ['not JSON', '[{', /TRUSTED_PUBLISHERS is invalid:\n {2}not JSON/],
    [
      "a key of another account than the publisher's",
      '[{"account":"111122223333","keyArn":"arn:aws:kms:eu-west-1:444455556666:key/k-1","bucket":"pub"}]',
      /0\.keyArn: the key ARN must name the publisher's own account/,
    ],
    [
      'an alias instead of a key',
      '[{"account":"111122223333","keyArn":"arn:aws:kms:eu-west-1:111122223333:alias/share","bucket":"pub"}]',
      /0\.keyArn: a KMS key ARN/,
    ],
    [
      'no bucket',
      '[{"account":"111122223333","keyArn":"arn:aws:kms:eu-west-1:111122223333:key/k-1"}]',
      /0\.bucket/,
    ],
  ])('refuses %s, naming where and what', (_case, text, message) => {
    // Act
    const parse = () => parseTrustedPublishers(text, 'TRUSTED_PUBLISHERS');

    // Assess
    expect(parse).toThrow(InvalidInputError);
    expect(parse).toThrow(message);
  });
});
