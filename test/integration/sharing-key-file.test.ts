/**
 * The local signing key file (lambdas/adapters/sharing/key-file-signer.ts): made once, 0600,
 * its id the SHA-256 of its public key; what it signs verifies through the check every
 * bundle goes through; a public key file is no signer; the trust store adds a key once.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileTrustStore } from '../../lambdas/adapters/sharing/file-trust-store.js';
import { keyFileSigner, publicKeyPem } from '../../lambdas/adapters/sharing/key-file-signer.js';
import { nodeSignatureCheck } from '../../lambdas/adapters/sharing/node-signature-check.js';
import { publicKeyFromFile } from '../../lambdas/adapters/sharing/public-key.js';
import { InvalidInputError } from '../../lambdas/core/errors.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ralph-key-file-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('Function: keyFileSigner', () => {
  it('makes the key once (0600) and signs what the check verifies', async () => {
    // Prepare
    const path = join(dir, 'sharing', 'signing-key.pem');
    const message = new TextEncoder().encode('DSSEv1 3 abc 2 hi');

    // Act
    const first = await keyFileSigner(path, { create: true });
    const second = await keyFileSigner(path, { create: true });
    const signature = await first.signer.sign(message);

    // Assess
    expect([first.created, second.created]).toEqual([true, false]);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readFile(path, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    const spki = await first.signer.publicKey();
    expect(first.signer.keyId).toBe(`local:${createHash('sha256').update(spki).digest('hex')}`);
    expect(second.signer.keyId).toBe(first.signer.keyId);
    expect(nodeSignatureCheck.verify(spki, message, signature)).toBe(true);
    expect(nodeSignatureCheck.verify(spki, new TextEncoder().encode('other'), signature)).toBe(
      false,
    );
    // The public key PEM given to consumers reads back as the same key.
    expect(publicKeyFromFile(Buffer.from(publicKeyPem(spki)), 'pub.pem')).toEqual(spki);
  });

  it('refuses a public key file as a signer, and makes none where creation is not asked', async () => {
    const { signer } = await keyFileSigner(join(dir, 'a.pem'), { create: true });
    const pub = join(dir, 'a.pub.pem');
    await writeFile(pub, publicKeyPem(await signer.publicKey()));
    await expect(keyFileSigner(pub, { create: false })).rejects.toThrow(InvalidInputError);
    await expect(keyFileSigner(join(dir, 'missing.pem'), { create: false })).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });
});

describe('Class: FileTrustStore', () => {
  it('adds a key once and finds it by id', async () => {
    const store = new FileTrustStore(join(dir, 'trusted-keys.json'));
    const key = { keyId: 'local:abc', publicKey: 'AAAA', addedAt: '2026-05-01T09:00:00Z' };
    await store.add(key);
    await store.add({ ...key, addedAt: '2026-05-02T09:00:00Z' });
    expect(await store.list()).toEqual([key]);
    expect(await store.find('local:abc')).toEqual(key);
    expect(await store.find('local:other')).toBeUndefined();
  });
});
