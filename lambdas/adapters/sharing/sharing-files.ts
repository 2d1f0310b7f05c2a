/**
 * Where a data directory keeps what sharing needs locally: the signing key, the trusted
 * keys, the published bundles and the quarantine, under `<data dir>/sharing/`.
 */
import { join } from 'node:path';

export interface SharingFiles {
  /** The local signing key (PKCS#8 PEM, 0600), made on the first `ralph share publish`. */
  signingKey: string;
  trustedKeys: string;
  published: string;
  /** Envelopes written by `share publish` when no --output is given. */
  outbox: string;
  quarantine: string;
}

export function sharingFiles(dataDir: string): SharingFiles {
  const root = join(dataDir, 'sharing');
  return {
    signingKey: join(root, 'signing-key.pem'),
    trustedKeys: join(root, 'trusted-keys.json'),
    published: join(root, 'published.json'),
    outbox: join(root, 'published'),
    quarantine: join(root, 'quarantine'),
  };
}
