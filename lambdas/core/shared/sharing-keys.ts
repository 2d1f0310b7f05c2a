/**
 * Where sharing keeps things in the artefact bucket and the table (docs/data-model.md,
 * "Sharing"), named once for publishing, the adapters and the Sharing construct's grants and policies.
 */
import { InvalidInputError } from '../errors.js';

/** A SHA-256 in hex: the only key segment sharing takes from its input. */
const DIGEST = /^[0-9a-f]{64}$/;

function checkedDigest(digest: string): string {
  if (!DIGEST.test(digest))
    throw new InvalidInputError('bundle digest', [`"${digest}" is not a SHA-256 in hex`]);
  return digest;
}

export const sharingKeys = {
  /** What the organisation may read: published envelopes (`<digest>.dsse.json`). */
  bundlePrefix: 'shared/bundles/',
  /** Refused envelopes, kept whole; never readable by the organisation. */
  quarantinePrefix: 'shared/quarantine/',
  /** A published envelope, named by the SHA-256 of its bytes. */
  bundle: (digest: string) => `shared/bundles/${checkedDigest(digest)}.dsse.json`,
  /**
   * What was published of a registry's content (its bundle without `exportedAt`), by that
   * content's SHA-256: ECDSA signatures differ each time, so the envelope's digest cannot
   * tell that the same content was published before. Never readable by the organisation.
   */
  publishedPrefix: 'shared/published/',
  published: (contentDigest: string) => `shared/published/${checkedDigest(contentDigest)}.json`,
  quarantined: (digest: string) => `shared/quarantine/${checkedDigest(digest)}.dsse.json`,
  /** The table partition of quarantine records, one item per refused envelope. */
  quarantinePk: 'QUARANTINE',
  quarantineSk: (digest: string) => `BUNDLE#${checkedDigest(digest)}`,
} as const;
