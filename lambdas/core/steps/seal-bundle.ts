/**
 * Publishing a learning bundle: its JSON signed (over DSSE's PAE) and wrapped in an
 * envelope, with the envelope's digest, which is how a consumer names what it received.
 */
import type { PatternBundle } from '../learning/bundle.js';
import { sha256Hex } from '../sharing/digest.js';
import { envelopeOf, signedBytesOf } from '../sharing/envelope.js';
import type { BundleSigner } from '../../sharing-ports.js';

export interface SealedBundle {
  /** The envelope as written (JSON and a newline). */
  bytes: Uint8Array;
  /** SHA-256 of `bytes`, hex. */
  digest: string;
  keyId: string;
}

/**
 * @example
 * const { bytes, digest } = await sealBundle(signer, bundleOf({ exportedAt, scopes, patterns }));
 */
export async function sealBundle(
  signer: BundleSigner,
  bundle: PatternBundle,
): Promise<SealedBundle> {
  const payload = new TextEncoder().encode(JSON.stringify(bundle));
  const signature = await signer.sign(signedBytesOf(payload));
  const envelope = envelopeOf(payload, { keyId: signer.keyId, signature });
  const bytes = new TextEncoder().encode(`${JSON.stringify(envelope, null, 2)}\n`);
  return { bytes, digest: await sha256Hex(bytes), keyId: signer.keyId };
}
