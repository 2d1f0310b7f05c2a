/**
 * Checks ECDSA P-256 / SHA-256 signatures with node:crypto. DER signatures are what KMS
 * `Sign` (ECDSA_SHA_256) returns and what the key-file signer makes, so bundles signed
 * either way are verified by this one path.
 */
import { verify } from 'node:crypto';
import type { SignatureCheck } from '../../sharing-ports.js';

export const nodeSignatureCheck: SignatureCheck = {
  verify(publicKey, message, signature) {
    try {
      return verify(
        'sha256',
        message,
        { key: Buffer.from(publicKey), format: 'der', type: 'spki', dsaEncoding: 'der' },
        signature,
      );
    } catch {
      // A signature or key that is not even DER does not hold.
      return false;
    }
  },
};
