/**
 * Whether an opened envelope's signature holds by a trusted key (core/steps/verify-envelope.ts):
 * real P-256 keys and the node:crypto check, an in-memory trust store.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { localKeyId, spkiOf } from '../../lambdas/adapters/sharing/public-key.js';
import { nodeSignatureCheck } from '../../lambdas/adapters/sharing/node-signature-check.js';
import type { TrustedKey } from '../../lambdas/core/schemas/sharing.js';
import {
  envelopeOf,
  openEnvelope,
  signedBytesOf,
  type OpenedEnvelope,
  type SignatureOf,
} from '../../lambdas/core/sharing/envelope.js';
import { verifyEnvelope } from '../../lambdas/core/steps/verify-envelope.js';
import type { TrustStore } from '../../lambdas/sharing-ports.js';

const payload = new TextEncoder().encode('{"format":"ralph-pattern-bundle"}');

function keyPair() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const spki = spkiOf(publicKey);
  const keyId = localKeyId(spki);
  return {
    keyId,
    trusted: {
      keyId,
      publicKey: Buffer.from(spki).toString('base64'),
      addedAt: '2026-05-01T09:00:00Z',
    } satisfies TrustedKey,
    signs: (bytes: Uint8Array): SignatureOf => ({
      keyId,
      signature: new Uint8Array(sign('sha256', bytes, { key: privateKey, dsaEncoding: 'der' })),
    }),
  };
}

function trusting(...keys: TrustedKey[]): TrustStore {
  return {
    list: async () => keys,
    find: async (keyId) => keys.find((key) => key.keyId === keyId),
    add: async () => undefined,
  };
}

function opened(...signatures: SignatureOf[]): OpenedEnvelope {
  const result = openEnvelope(
    new TextEncoder().encode(JSON.stringify(envelopeOf(payload, ...signatures))),
  );
  if (!result.ok) throw new Error(result.detail);
  return result;
}

describe('Function: verifyEnvelope', () => {
  const publisher = keyPair();
  const stranger = keyPair();

  it("accepts a trusted key's signature over the PAE", async () => {
    // Act
    const verdict = await verifyEnvelope(
      { trust: trusting(publisher.trusted), check: nodeSignatureCheck },
      opened(publisher.signs(signedBytesOf(payload))),
    );

    // Assess
    expect(verdict).toEqual({ ok: true, key: publisher.trusted });
  });

  it('accepts a trusted signature beside one by a key not trusted', async () => {
    const verdict = await verifyEnvelope(
      { trust: trusting(publisher.trusted), check: nodeSignatureCheck },
      opened(stranger.signs(signedBytesOf(payload)), publisher.signs(signedBytesOf(payload))),
    );
    expect(verdict).toMatchObject({ ok: true, key: { keyId: publisher.keyId } });
  });

  it('refuses a signature by a key not trusted, naming it', async () => {
    const verdict = await verifyEnvelope(
      { trust: trusting(publisher.trusted), check: nodeSignatureCheck },
      opened(stranger.signs(signedBytesOf(payload))),
    );
    expect(verdict).toMatchObject({ ok: false, reason: 'untrusted_key' });
    expect(verdict.ok ? '' : verdict.detail).toContain(`signed by ${stranger.keyId}, none of them`);
  });

  it.each([
    ['the payload alone, not its PAE', payload],
    ['another payload', signedBytesOf(new TextEncoder().encode('{}'))],
  ])('refuses a trusted key id whose signature covers %s', async (_name, signedBytes) => {
    const verdict = await verifyEnvelope(
      { trust: trusting(publisher.trusted), check: nodeSignatureCheck },
      opened(publisher.signs(signedBytes)),
    );
    expect(verdict).toMatchObject({ ok: false, reason: 'bad_signature' });
  });

  it("refuses a stranger's signature under a trusted key's id", async () => {
    const forged = { ...stranger.signs(signedBytesOf(payload)), keyId: publisher.keyId };
    const verdict = await verifyEnvelope(
      { trust: trusting(publisher.trusted), check: nodeSignatureCheck },
      opened(forged),
    );
    expect(verdict).toMatchObject({ ok: false, reason: 'bad_signature' });
  });
});
