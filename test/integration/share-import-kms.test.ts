/**
 * The deployed sharing path end to end, on the emulators and a protocol-true KMS: a
 * publisher seals a bundle with its KMS key, puts it under its bundle prefix and announces
 * it; the consumer's share-import function reads it, takes the publisher's public key from
 * KMS and imports the patterns with their provenance. A bundle changed after signing is
 * quarantined with nothing imported.
 */
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKmsClient } from '../../lambdas/adapters/aws-clients.js';
import { KmsPublicKeys } from '../../lambdas/adapters/sharing/kms-public-keys.js';
import { KmsBundleSigner } from '../../lambdas/adapters/sharing/kms-signer.js';
import { sharingKeys } from '../../lambdas/core/shared/sharing-keys.js';
import type { TrustedPublisher } from '../../lambdas/adapters/sharing/trusted-publishers.js';
import { bundleOf } from '../../lambdas/core/learning/bundle.js';
import type { RegistryScope } from '../../lambdas/core/schemas/learning.js';
import { BUNDLE_PUBLISHED } from '../../lambdas/core/schemas/sharing.js';
import { sealBundle } from '../../lambdas/core/steps/seal-bundle.js';
import { useEmulatorStores, type EmulatorStores } from '../support/emulator-stores.js';
import { standInKeyArn, startKmsStandIn, type KmsStandIn } from '../support/kms-stand-in.js';
import { makeRegistryPattern } from '../support/learning-records.js';
import { shareImportOver } from '../support/share-import.js';

const PUBLISHER = '444455556666';
const keyArn = standInKeyArn(PUBLISHER);
const clock = { now: () => new Date('2026-11-27T08:00:00.000Z') };
let kms: KmsStandIn;
let stores: EmulatorStores;
useEmulatorStores((ready) => (stores = ready));

beforeAll(async () => {
  kms = await startKmsStandIn([keyArn]);
});
afterAll(async () => {
  await kms.close();
});

const kmsClient = () =>
  createKmsClient({
    endpoint: kms.url,
    region: 'eu-west-1',
    credentials: { accessKeyId: 'AKIDSHARE', secretAccessKey: 'stand-in' },
  });

/** Seals a two-pattern bundle of `scope` with the publisher's KMS key; `change` may alter its bytes. */
async function publish(scope: RegistryScope, change = (bytes: Uint8Array) => bytes) {
  const signer = new KmsBundleSigner({ client: kmsClient(), keyArn });
  const sealed = await sealBundle(
    signer,
    bundleOf({
      exportedAt: '2026-11-26T12:00:00Z',
      scopes: [scope],
      patterns: [
        makeRegistryPattern({ scope }),
        makeRegistryPattern({ scope, patternId: 'pat-success-small-steps', type: 'success' }),
      ],
    }),
  );
  const bytes = change(sealed.bytes);
  const digest = Buffer.from(await crypto.subtle.digest('SHA-256', bytes)).toString('hex');
  const detail = {
    bucket: stores.emulators.bucketName,
    key: sharingKeys.bundle(digest),
    digest,
    keyId: keyArn,
  };
  await stores.s3.send(
    new PutObjectCommand({ Bucket: detail.bucket, Key: detail.key, Body: bytes }),
  );
  return {
    version: '0',
    id: `event-${digest.slice(0, 8)}`,
    source: BUNDLE_PUBLISHED.source,
    'detail-type': BUNDLE_PUBLISHED.detailType,
    account: PUBLISHER,
    time: '2026-11-27T08:00:00Z',
    region: 'eu-west-1',
    resources: [],
    detail,
  };
}

function shareImport() {
  const publisher: TrustedPublisher = {
    account: PUBLISHER,
    keyArn,
    bucket: stores.emulators.bucketName,
  };
  return shareImportOver(stores, {
    publisher,
    publicKeys: new KmsPublicKeys(kmsClient()),
    clock,
  });
}

describe('Sharing in AWS: a KMS-signed bundle through the share-import function', () => {
  it("imports the publisher's patterns with the account, bundle digest and KMS key as provenance", async () => {
    // Prepare
    const event = await publish('org');

    // Act
    const answer = await shareImport()(event);

    // Assess
    expect(answer).toMatchObject({
      outcome: 'received',
      report: { status: 'imported', added: 2, keyId: keyArn },
    });
    const stored = await stores.learning.listPatterns('org');
    expect(stored).toHaveLength(2);
    for (const pattern of stored)
      expect(pattern.sources[0]?.shared).toEqual({
        bundle: `sha256:${event.detail.digest}`,
        keyId: keyArn,
        account: PUBLISHER,
      });
  });

  it('quarantines a bundle changed after it was signed, and imports nothing of it', async () => {
    // Prepare: one base64 character of the payload swapped, then announced as it is.
    const event = await publish('project:tampered', (bytes) => {
      const changed = new Uint8Array(bytes);
      const at = new TextDecoder().decode(bytes).indexOf('"payload": "') + 40;
      changed[at] = changed[at] === 0x41 ? 0x42 : 0x41;
      return changed;
    });

    // Act
    const answer = await shareImport()(event);

    // Assess
    expect(answer).toMatchObject({
      outcome: 'received',
      report: { status: 'quarantined', reason: 'bad_signature' },
    });
    expect(await stores.learning.listPatterns('project:tampered')).toEqual([]);
    expect(await stores.artefacts.exists(sharingKeys.quarantined(event.detail.digest))).toBe(true);
  });
});
