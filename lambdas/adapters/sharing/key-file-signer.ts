/**
 * The local stand-in for a KMS signing key: an ECDSA P-256 key in a PKCS#8 PEM file (0600),
 * made on first use. Same envelope and the same signature encoding (DER over SHA-256) as
 * KMS `Sign` with ECDSA_SHA_256, so one verification path checks both.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { InvalidInputError } from '../../core/errors.js';
import type { BundleSigner } from '../../sharing-ports.js';
import { localKeyId, publicKeyFromFile } from './public-key.js';
import { writeWhole } from '../whole-file.js';

export interface KeyFile {
  signer: BundleSigner;
  /** Whether this call made the key (the file did not exist). */
  created: boolean;
}

/**
 * The key in `path`, made there (0600) when there is none.
 *
 * @example
 * const { signer, created } = await keyFileSigner(join(dataDir, 'sharing', 'signing-key.pem'));
 */
export async function keyFileSigner(path: string, options: { create: boolean }): Promise<KeyFile> {
  let pem: string;
  let created = false;
  try {
    pem = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || !options.create) throw error;
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const made = privateKey.export({ type: 'pkcs8', format: 'pem' });
    await writeWhole(path, made, { mode: 0o600, exclusive: true }).then(
      () => (created = true),
      // Another process made it first: use theirs.
      (raced: NodeJS.ErrnoException) => {
        if (raced.code !== 'EEXIST') throw raced;
      },
    );
    pem = await readFile(path, 'utf8');
  }
  return { signer: signerOf(pem, path), created };
}

function signerOf(pem: string, path: string): BundleSigner {
  if (!pem.includes('PRIVATE KEY'))
    throw new InvalidInputError(path, [
      '(root): not a private key file (PKCS#8 PEM); a public key verifies, it cannot sign',
    ]);
  const publicKey = publicKeyFromFile(Buffer.from(pem), path);
  const privateKey = createPrivateKey(pem);
  return {
    keyId: localKeyId(publicKey),
    sign: async (message) =>
      new Uint8Array(sign('sha256', message, { key: privateKey, dsaEncoding: 'der' })),
    publicKey: async () => publicKey,
  };
}

/** The public key of a key file as PEM: what a consumer trusts (`ralph share trust`). */
export function publicKeyPem(spki: Uint8Array): string {
  return createPublicKey({ key: Buffer.from(spki), format: 'der', type: 'spki' })
    .export({ type: 'spki', format: 'pem' })
    .toString();
}
