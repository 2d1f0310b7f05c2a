/**
 * The share-publish function's ports, built once per container from its environment: the
 * loop's learning store and artefact bucket (TABLE_NAME, BUCKET_NAME), the stack's signing
 * key (SIGNING_KEY_ARN) in KMS, and the account's default bus to announce on.
 */
import { createEventBridgeClient, createKmsClient } from '../adapters/aws-clients.js';
import { EventBridgeAnnouncer } from '../adapters/sharing/eventbridge-announcer.js';
import { KmsBundleSigner } from '../adapters/sharing/kms-signer.js';
import type { PublishBundleDeps } from '../core/steps/publish-bundle.js';
import { depsFromEnvironment, required } from './store-environment.js';

let cached: PublishBundleDeps | undefined;

export function sharePublishDepsFromEnvironment(): PublishBundleDeps {
  if (cached) return cached;
  const loop = depsFromEnvironment();
  cached = {
    learning: loop.learning,
    signer: new KmsBundleSigner({
      client: createKmsClient({}),
      keyArn: required('SIGNING_KEY_ARN'),
    }),
    artefacts: loop.artefacts,
    announcer: new EventBridgeAnnouncer({ client: createEventBridgeClient({}) }),
    clock: loop.clock,
    bucket: required('BUCKET_NAME'),
  };
  return cached;
}
