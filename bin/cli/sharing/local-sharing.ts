/**
 * What `ralph share` works with in a data directory: its trust store, quarantine, published
 * bundles and signing key (lambdas/adapters/sharing/), and the signature check every
 * received bundle goes through.
 */
import { readFile } from 'node:fs/promises';
import { FileQuarantine } from '../../../lambdas/adapters/sharing/file-quarantine.js';
import { FileTrustStore } from '../../../lambdas/adapters/sharing/file-trust-store.js';
import { nodeSignatureCheck } from '../../../lambdas/adapters/sharing/node-signature-check.js';
import { PublishedBundles } from '../../../lambdas/adapters/sharing/published-bundles.js';
import {
  sharingFiles,
  type SharingFiles,
} from '../../../lambdas/adapters/sharing/sharing-files.js';
import type { SignatureCheck } from '../../../lambdas/sharing-ports.js';
import { CliError } from '../errors.js';
import { EXIT } from '../exit-codes.js';

export interface LocalSharing {
  files: SharingFiles;
  trust: FileTrustStore;
  quarantine: FileQuarantine;
  published: PublishedBundles;
  check: SignatureCheck;
}

export function localSharing(dataDir: string): LocalSharing {
  const files = sharingFiles(dataDir);
  return {
    files,
    trust: new FileTrustStore(files.trustedKeys),
    quarantine: new FileQuarantine(files.quarantine),
    published: new PublishedBundles(files.published),
    check: nodeSignatureCheck,
  };
}

/** A file a person named, whole; one that cannot be read is bad input (exit 2). */
export async function readNamedFile(path: string, what: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(path));
  } catch (error) {
    throw new CliError(
      `cannot read ${what} ${path}: ${(error as Error).message}`,
      EXIT.invalidInput,
    );
  }
}
