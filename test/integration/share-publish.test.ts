/**
 * Publishing from a deployed stack, on the emulators, a protocol-true KMS and a protocol-true
 * EventBridge: the share-publish function exports the registry, seals it with the stack's
 * KMS key, writes it once under the bundle prefix and announces it on the default bus; a
 * consumer (another account: emulators of its own), trusting the publisher's key as its stack
 * does, verifies and imports what was announced.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventBridgeClient, createKmsClient } from '../../lambdas/adapters/aws-clients.js';
import { ConfiguredTrustStore } from '../../lambdas/adapters/sharing/configured-trust-store.js';
import { KmsPublicKeys } from '../../lambdas/adapters/sharing/kms-public-keys.js';
import { EventBridgeAnnouncer } from '../../lambdas/adapters/sharing/eventbridge-announcer.js';
import { DynamoS3Quarantine } from '../../lambdas/adapters/sharing/dynamo-s3-quarantine.js';
import { KmsBundleSigner } from '../../lambdas/adapters/sharing/kms-signer.js';
import { nodeSignatureCheck } from '../../lambdas/adapters/sharing/node-signature-check.js';
import { RalphError, TransientError } from '../../lambdas/core/errors.js';
import { BUNDLE_PUBLISHED } from '../../lambdas/core/schemas/sharing.js';
import { sharingKeys } from '../../lambdas/core/shared/sharing-keys.js';
import { receiveBundle } from '../../lambdas/core/steps/receive-bundle.js';
import { makeSharePublishHandler } from '../../lambdas/handlers/share-publish.js';
import { useEmulatorStores, type EmulatorStores } from '../support/emulator-stores.js';
import {
  startEventBridgeStandIn,
  type EventBridgeStandIn,
} from '../support/eventbridge-stand-in.js';
import { standInKeyArn, startKmsStandIn, type KmsStandIn } from '../support/kms-stand-in.js';
import { lambdaContext } from '../support/lambda-context.js';
import { makeRegistryPattern } from '../support/learning-records.js';

const PUBLISHER = '444455556666';
const keyArn = standInKeyArn(PUBLISHER);
const clock = { now: () => new Date('2026-11-27T08:00:00.000Z') };
const credentials = { accessKeyId: 'AKIDSHARE', secretAccessKey: 'stand-in' };
let kms: KmsStandIn;
let events: EventBridgeStandIn;
let publisher: EmulatorStores;
let consumer: EmulatorStores;
useEmulatorStores((ready) => (publisher = ready));
useEmulatorStores((ready) => (consumer = ready));

beforeAll(async () => {
  kms = await startKmsStandIn([keyArn]);
  events = await startEventBridgeStandIn();
});
afterAll(async () => {
  await kms.close();
  await events.close();
});

function sharePublish() {
  const run = makeSharePublishHandler(
    () => ({
      learning: publisher.learning,
      signer: new KmsBundleSigner({
        client: createKmsClient({ endpoint: kms.url, region: 'eu-west-1', credentials }),
        keyArn,
      }),
      artefacts: publisher.artefacts,
      announcer: new EventBridgeAnnouncer({
        client: createEventBridgeClient({
          endpoint: events.url,
          region: 'eu-west-1',
          credentials,
          maxAttempts: 1,
        }),
      }),
      clock,
      bucket: publisher.emulators.bucketName,
    }),
    new Logger({ serviceName: 'ralph-test', logLevel: 'SILENT' }),
  );
  return (input: unknown) => run(input, lambdaContext('share-publish'));
}

/** The consumer's trust, as its stack holds it: the publisher's key, read from KMS. */
function trustingPublisher(): ConfiguredTrustStore {
  const publisherStack = { account: PUBLISHER, keyArn, bucket: publisher.emulators.bucketName };
  return new ConfiguredTrustStore({
    publishers: [publisherStack],
    publicKeys: new KmsPublicKeys(
      createKmsClient({ endpoint: kms.url, region: 'eu-west-1', credentials }),
    ),
    clock,
  });
}

describe('Sharing in AWS: the share-publish function', () => {
  it('publishes the org registry, announces it, and a consumer trusting the key imports it', async () => {
    // Prepare
    await publisher.learning.savePattern(makeRegistryPattern({ scope: 'org' }), undefined);
    await publisher.learning.savePattern(
      makeRegistryPattern({ scope: 'org', patternId: 'pat-success-small-steps', type: 'success' }),
      undefined,
    );

    // Act
    const outcome = await sharePublish()({});

    // Assess: written at its digest, announced on the default bus with what names it.
    expect(outcome).toMatchObject({ status: 'published', scopes: ['org'], patterns: 2 });
    if (outcome.status === 'empty') throw new Error('published nothing');
    const { bucket, key, digest, keyId } = outcome;
    expect({ bucket, key, keyId }).toEqual({
      bucket: publisher.emulators.bucketName,
      key: sharingKeys.bundle(digest),
      keyId: keyArn,
    });
    expect(events.events).toEqual([
      {
        busName: 'default',
        source: BUNDLE_PUBLISHED.source,
        detailType: BUNDLE_PUBLISHED.detailType,
        detail: { bucket, key, digest, keyId },
        signed: true,
      },
    ]);
    const bytes = new TextEncoder().encode(await publisher.artefacts.getText(key));
    const report = await receiveBundle(
      {
        learning: consumer.learning,
        trust: trustingPublisher().only(PUBLISHER),
        quarantine: new DynamoS3Quarantine({
          client: consumer.dynamo,
          tableName: consumer.emulators.tableName,
          artefacts: consumer.artefacts,
        }),
        check: nodeSignatureCheck,
        clock,
      },
      bytes,
      `s3://${bucket}/${key}`,
    );
    expect(report).toMatchObject({ digest, status: 'imported', added: 2, keyId: keyArn });
    const imported = await consumer.learning.listPatterns('org');
    expect(imported.map((pattern) => pattern.patternId).sort()).toEqual(
      [makeRegistryPattern({ scope: 'org' }).patternId, 'pat-success-small-steps'].sort(),
    );
    expect(imported[0]?.sources[0]?.shared).toEqual({
      bundle: `sha256:${digest}`,
      keyId: keyArn,
      account: PUBLISHER,
    });
  });

  it('publishes the same content once: a second invocation neither signs nor announces', async () => {
    // Prepare
    await publisher.learning.savePattern(makeRegistryPattern({ scope: 'project:same' }), undefined);
    const first = await sharePublish()({ scopes: ['project:same'] });
    const signs = kms.calls.filter((call) => call.operation === 'Sign').length;
    const announced = events.events.length;

    // Act
    const second = await sharePublish()({ scopes: ['project:same'] });

    // Assess
    expect(first).toMatchObject({ status: 'published' });
    expect(second).toEqual({ ...first, status: 'unchanged' });
    expect(kms.calls.filter((call) => call.operation === 'Sign')).toHaveLength(signs);
    expect(events.events).toHaveLength(announced);
  });

  it('publishes nothing when the scopes hold no pattern', async () => {
    // Act
    const outcome = await sharePublish()({ scopes: ['project:nothing-here'] });

    // Assess
    expect(outcome).toEqual({ status: 'empty', scopes: ['project:nothing-here'] });
  });

  it('refuses unknown keys and bad scopes before reading anything', async () => {
    // Act / Assess
    await expect(sharePublish()({ scope: ['org'] })).rejects.toThrow(/scope/);
    await expect(sharePublish()({ scopes: ['everyone'] })).rejects.toThrow(/scopes\.0|scopes\[0\]/);
  });

  it('does not record content as published when EventBridge refused the announcement, so the next run announces it', async () => {
    // Prepare
    await publisher.learning.savePattern(
      makeRegistryPattern({ scope: 'project:refused' }),
      undefined,
    );
    events.refuseNext(1, 'InternalFailure');

    // Act
    const refused = sharePublish()({ scopes: ['project:refused'] });

    // Assess
    await expect(refused).rejects.toBeInstanceOf(TransientError);
    const retried = await sharePublish()({ scopes: ['project:refused'] });
    expect(retried).toMatchObject({ status: 'published' });
    expect(events.events.at(-1)?.detail).toMatchObject({ key: (retried as { key: string }).key });
  });

  it('names an entry refused for good (not transient) as an EventBridge error', async () => {
    // Prepare
    await publisher.learning.savePattern(
      makeRegistryPattern({ scope: 'project:denied' }),
      undefined,
    );
    events.refuseNext(1, 'AccessDeniedException');

    // Act
    const denied = sharePublish()({ scopes: ['project:denied'] });

    // Assess
    await expect(denied).rejects.toThrow(RalphError);
    await expect(sharePublish()({ scopes: ['project:denied'] })).resolves.toMatchObject({
      status: 'published',
    });
  });
});
