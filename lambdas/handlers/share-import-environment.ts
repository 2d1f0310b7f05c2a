/**
 * The share-import function's ports, built once per container from its environment: the
 * loop's learning store (TABLE_NAME, BUCKET_NAME), the trusted publishers
 * (TRUSTED_PUBLISHERS, JSON: the Sharing construct's props), their public keys from KMS, the
 * quarantine on the same table and bucket, and the publishers' buckets to read bundles from.
 */
import {
  createDynamoDocumentClient,
  createKmsClient,
  createS3Client,
} from '../adapters/aws-clients.js';
import { ConfiguredTrustStore } from '../adapters/sharing/configured-trust-store.js';
import { DynamoS3Quarantine } from '../adapters/sharing/dynamo-s3-quarantine.js';
import { KmsPublicKeys } from '../adapters/sharing/kms-public-keys.js';
import { nodeSignatureCheck } from '../adapters/sharing/node-signature-check.js';
import { PublishedBundleSource } from '../adapters/sharing/published-bundle-source.js';
import { parseTrustedPublishers } from '../adapters/sharing/trusted-publishers.js';
import type { LearningStore } from '../learning-ports.js';
import type { Clock } from '../ports.js';
import type { Quarantine, SignatureCheck } from '../sharing-ports.js';
import { depsFromEnvironment, required } from './store-environment.js';

export interface ShareImportDeps {
  source: PublishedBundleSource;
  /** Every trusted publisher's key; narrowed to the announcing account's per event. */
  trust: ConfiguredTrustStore;
  learning: LearningStore;
  quarantine: Quarantine;
  check: SignatureCheck;
  clock: Clock;
}

let cached: ShareImportDeps | undefined;

export function shareImportDepsFromEnvironment(): ShareImportDeps {
  if (cached) return cached;
  const loop = depsFromEnvironment();
  const publishers = parseTrustedPublishers(required('TRUSTED_PUBLISHERS'), 'TRUSTED_PUBLISHERS');
  cached = {
    source: new PublishedBundleSource({ client: createS3Client({}), publishers }),
    trust: new ConfiguredTrustStore({
      publishers,
      publicKeys: new KmsPublicKeys(createKmsClient({})),
      clock: loop.clock,
    }),
    learning: loop.learning,
    quarantine: new DynamoS3Quarantine({
      client: createDynamoDocumentClient({}),
      tableName: required('TABLE_NAME'),
      artefacts: loop.artefacts,
    }),
    check: nodeSignatureCheck,
    clock: loop.clock,
  };
  return cached;
}
