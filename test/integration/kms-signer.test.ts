import { createPublicKey, randomBytes, verify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKmsClient } from '../../lambdas/adapters/aws-clients.js';
import { KmsBundleSigner } from '../../lambdas/adapters/sharing/kms-signer.js';
import { RalphError, TransientError } from '../../lambdas/core/errors.js';
import { standInKeyArn, startKmsStandIn, type KmsStandIn } from '../support/kms-stand-in.js';

/** node:crypto's check, as the consumer makes it: ECDSA, SHA-256 over the message, DER. */
const verifies = (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array) =>
  verify(
    'sha256',
    message,
    createPublicKey({ key: Buffer.from(publicKey), format: 'der', type: 'spki' }),
    signature,
  );

describe('Class: KmsBundleSigner', () => {
  const keyArn = standInKeyArn();
  let kms: KmsStandIn;
  const client = (maxAttempts = 1) =>
    createKmsClient({
      endpoint: kms.url,
      region: 'eu-west-1',
      credentials: { accessKeyId: 'AKIDSIGNER', secretAccessKey: 'stand-in' },
      maxAttempts,
    });

  beforeAll(async () => {
    kms = await startKmsStandIn([keyArn]);
  });
  afterAll(async () => {
    await kms.close();
  });

  describe('Method: sign', () => {
    it('signs a message larger than KMS signs raw, verifiably with the public key it gives', async () => {
      // Prepare: a bundle's PAE is usually well over KMS's 4096-byte raw limit.
      const signer = new KmsBundleSigner({ client: client(), keyArn });
      const message = randomBytes(20_000);

      // Act
      const signature = await signer.sign(message);
      const publicKey = await signer.publicKey();

      // Assess
      expect(signer.keyId).toBe(keyArn);
      expect(verifies(publicKey, message, signature)).toBe(true);
      expect(verifies(publicKey, randomBytes(20_000), signature)).toBe(false);
    });

    it('asks KMS for the public key once across many signatures', async () => {
      // Prepare
      const signer = new KmsBundleSigner({ client: client(), keyArn });
      const before = kms.calls.length;
      const messages = Array.from({ length: 5 }, () => randomBytes(100));

      // Act
      const checks = await Promise.all(
        messages.map(async (message) =>
          verifies(await signer.publicKey(), message, await signer.sign(message)),
        ),
      );

      // Assess
      expect(checks).toEqual([true, true, true, true, true]);
      const asked = kms.calls.slice(before);
      expect(asked.filter((call) => call.operation === 'GetPublicKey')).toHaveLength(1);
      expect(asked.filter((call) => call.operation === 'Sign')).toHaveLength(5);
      expect(asked.every((call) => call.signed && call.keyId === keyArn)).toBe(true);
    });

    it('retries a failing KMS within its bounded attempts', async () => {
      // Prepare
      const signer = new KmsBundleSigner({ client: client(3), keyArn });
      kms.failNext(2);
      const message = randomBytes(64);

      // Act
      const signature = await signer.sign(message);

      // Assess
      expect(verifies(await signer.publicKey(), message, signature)).toBe(true);
    });

    it('gives up on a KMS that keeps failing with a TransientError naming the key', async () => {
      // Prepare
      const signer = new KmsBundleSigner({ client: client(2), keyArn });
      kms.failNext(2);

      // Act
      const failure = signer.sign(randomBytes(64));

      // Assess
      await expect(failure).rejects.toBeInstanceOf(TransientError);
      await expect(failure).rejects.toThrow(keyArn);
    });

    it('refuses a key KMS does not have, naming it, without retrying', async () => {
      // Prepare
      const missing = standInKeyArn();
      const signer = new KmsBundleSigner({ client: client(4), keyArn: missing });
      const before = kms.calls.length;

      // Act
      const failure = signer.sign(randomBytes(64));

      // Assess
      await expect(failure).rejects.toBeInstanceOf(RalphError);
      await expect(failure).rejects.toThrow(/NotFoundException/);
      await expect(failure).rejects.not.toBeInstanceOf(TransientError);
      expect(kms.calls.length - before).toBe(1);
    });
  });

  describe('Method: publicKey', () => {
    it('asks again after a failed fetch instead of keeping the failure', async () => {
      // Prepare
      const signer = new KmsBundleSigner({ client: client(1), keyArn });
      kms.failNext(1);

      // Act
      const first = signer.publicKey();
      await expect(first).rejects.toBeInstanceOf(TransientError);
      const second = await signer.publicKey();

      // Assess
      expect(Buffer.from(second)).toEqual(kms.keys.get(keyArn)!.publicKeyDer);
    });
  });
});
