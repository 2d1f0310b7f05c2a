/**
 * ECDSA P-256 public keys as sharing names them: SubjectPublicKeyInfo DER (what KMS
 * `GetPublicKey` returns), read from whatever key file a person has (a public key PEM, the
 * publisher's PKCS#8 key file, or SPKI DER), and the local key id derived from it.
 */
import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import { InvalidInputError } from '../../core/errors.js';

const P256 = 'prime256v1';

/** `local:<SHA-256 of the SPKI DER, hex>`: the same key always has the same id. */
export function localKeyId(spki: Uint8Array): string {
  return `local:${createHash('sha256').update(spki).digest('hex')}`;
}

export function spkiOf(key: KeyObject): Uint8Array {
  return new Uint8Array(key.export({ type: 'spki', format: 'der' }));
}

/**
 * The SPKI DER of the P-256 public key in `bytes` (PEM of a public or private key, or
 * SPKI DER); InvalidInputError naming `where` for anything else.
 *
 * @example
 * publicKeyFromFile(await readFile('a.pub.pem'), 'a.pub.pem'); // Uint8Array (SPKI DER)
 */
export function publicKeyFromFile(bytes: Uint8Array, where: string): Uint8Array {
  const text = Buffer.from(bytes).toString('utf8');
  let key: KeyObject;
  try {
    key = text.includes('-----BEGIN')
      ? createPublicKey(text)
      : createPublicKey({ key: Buffer.from(bytes), format: 'der', type: 'spki' });
  } catch (error) {
    throw new InvalidInputError(where, [
      `(root): not a public key (PEM, or SPKI DER) nor a private key file (${(error as Error).message})`,
    ]);
  }
  const curve = key.asymmetricKeyDetails?.namedCurve;
  if (key.asymmetricKeyType !== 'ec' || curve !== P256)
    throw new InvalidInputError(where, [
      `(root): a ${key.asymmetricKeyType ?? 'unknown'}${curve ? ` ${curve}` : ''} key; bundles are signed with ECDSA P-256 keys (KMS ECC_NIST_P256)`,
    ]);
  return spkiOf(key);
}
