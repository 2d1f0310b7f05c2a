/**
 * Whether an opened envelope carries a signature that holds by a key the consumer trusts.
 * A signature's key id only says which trusted key to try (DSSE: it decides nothing); the
 * signature checked against that key's public key does.
 */
import { fromBase64, type OpenedEnvelope, type Refusal } from '../sharing/envelope.js';
import type { TrustedKey } from '../schemas/sharing.js';
import type { SignatureCheck, TrustStore } from '../../sharing-ports.js';

export interface Verified {
  ok: true;
  /** The trusted key whose signature holds. */
  key: TrustedKey;
}

/**
 * @example
 * const verified = await verifyEnvelope({ trust, check }, opened);
 * if (!verified.ok) console.log(verified.reason); // 'untrusted_key' | 'bad_signature'
 */
export async function verifyEnvelope(
  deps: { trust: TrustStore; check: SignatureCheck },
  opened: OpenedEnvelope,
): Promise<Verified | Refusal> {
  const failed: string[] = [];
  for (const { keyid, sig } of opened.envelope.signatures) {
    const key = await deps.trust.find(keyid);
    if (!key) continue;
    if (deps.check.verify(fromBase64(key.publicKey), opened.signed, fromBase64(sig)))
      return { ok: true, key };
    failed.push(keyid);
  }
  const keyIds = opened.envelope.signatures.map((signature) => signature.keyid);
  if (failed.length === 0)
    return {
      ok: false,
      reason: 'untrusted_key',
      detail: `signed by ${keyIds.join(', ')}, none of them a trusted key here (\`ralph share trust\` adds the publisher's public key)`,
    };
  return {
    ok: false,
    reason: 'bad_signature',
    detail: `the signature by ${failed.join(', ')} does not hold for this payload: it was changed after it was signed, or signed by another key under that id`,
  };
}
