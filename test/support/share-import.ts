/**
 * The share-import function over a test file's emulator stores, as its environment would
 * build it: the publisher's bucket as the source, the publishers trusted through KMS (the
 * given public-key reader), the quarantine in the table and bucket.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { ConfiguredTrustStore } from '../../lambdas/adapters/sharing/configured-trust-store.js';
import { DynamoS3Quarantine } from '../../lambdas/adapters/sharing/dynamo-s3-quarantine.js';
import type { KmsPublicKeys } from '../../lambdas/adapters/sharing/kms-public-keys.js';
import { nodeSignatureCheck } from '../../lambdas/adapters/sharing/node-signature-check.js';
import { PublishedBundleSource } from '../../lambdas/adapters/sharing/published-bundle-source.js';
import type { TrustedPublisher } from '../../lambdas/adapters/sharing/trusted-publishers.js';
import { makeShareImportHandler } from '../../lambdas/handlers/share-import.js';
import type { EmulatorStores } from './emulator-stores.js';
import { lambdaContext } from './lambda-context.js';

export function shareImportOver(
  stores: EmulatorStores,
  options: { publisher: TrustedPublisher; publicKeys: KmsPublicKeys; clock: { now(): Date } },
): (event: unknown) => Promise<unknown> {
  const { publisher, publicKeys, clock } = options;
  const run = makeShareImportHandler(
    () => ({
      source: new PublishedBundleSource({ client: stores.s3, publishers: [publisher] }),
      trust: new ConfiguredTrustStore({ publishers: [publisher], publicKeys, clock }),
      learning: stores.learning,
      quarantine: new DynamoS3Quarantine({
        client: stores.dynamo,
        tableName: stores.emulators.tableName,
        artefacts: stores.artefacts,
      }),
      check: nodeSignatureCheck,
      clock,
    }),
    new Logger({ serviceName: 'ralph-test', logLevel: 'SILENT' }),
  );
  return (event: unknown) => run(event, lambdaContext('share-import'));
}
