/**
 * The share-import function on the emulators: where an announced bundle may be read from
 * (the trusted publisher's bucket, under its bundle prefix, with the announced bytes), and
 * what is refused before anything is read or imported. What receiving a bundle does is the
 * receive step's (its own tests); here the bucket stands in for a publisher's.
 */
import { createHash } from 'node:crypto';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { KmsPublicKeys } from '../../lambdas/adapters/sharing/kms-public-keys.js';
import { PublishedBundleSource } from '../../lambdas/adapters/sharing/published-bundle-source.js';
import { sharingKeys } from '../../lambdas/core/shared/sharing-keys.js';
import type { TrustedPublisher } from '../../lambdas/adapters/sharing/trusted-publishers.js';
import { createKmsClient } from '../../lambdas/adapters/aws-clients.js';
import {
  BUNDLE_PUBLISHED,
  type BundlePublishedDetail,
} from '../../lambdas/core/schemas/sharing.js';
import { useEmulatorStores, type EmulatorStores } from '../support/emulator-stores.js';
import { shareImportOver } from '../support/share-import.js';

const PUBLISHER = '111122223333';
let stores: EmulatorStores;
let publisher: TrustedPublisher;
let source: PublishedBundleSource;
useEmulatorStores((ready) => {
  stores = ready;
  publisher = {
    account: PUBLISHER,
    keyArn: `arn:aws:kms:eu-west-1:${PUBLISHER}:key/publisher-key`,
    bucket: ready.emulators.bucketName,
  };
  source = new PublishedBundleSource({ client: ready.s3, publishers: [publisher] });
});

/** Publishes `text` as a bundle in the publisher's bucket; returns its announcement. */
async function published(text: string, key?: string): Promise<BundlePublishedDetail> {
  const digest = createHash('sha256').update(text).digest('hex');
  const detail = {
    bucket: stores.emulators.bucketName,
    key: key ?? sharingKeys.bundle(digest),
    digest,
    keyId: publisher.keyArn,
  };
  await stores.s3.send(
    new PutObjectCommand({ Bucket: detail.bucket, Key: detail.key, Body: text }),
  );
  return detail;
}

const event = (account: string, detail: unknown) => ({
  version: '0',
  id: 'event-1',
  source: BUNDLE_PUBLISHED.source,
  'detail-type': BUNDLE_PUBLISHED.detailType,
  account,
  time: '2026-11-27T08:00:00Z',
  region: 'eu-west-1',
  resources: [],
  detail,
});

function handler() {
  return shareImportOver(stores, {
    publisher,
    // Never asked here: every event below is refused before a key is needed.
    publicKeys: new KmsPublicKeys(
      createKmsClient({ endpoint: 'http://127.0.0.1:1', region: 'eu-west-1' }),
    ),
    clock: { now: () => new Date('2026-11-27T08:00:00.000Z') },
  });
}

describe('Class: PublishedBundleSource', () => {
  it("reads an announced bundle from its publisher's bucket, with where it came from", async () => {
    // Prepare
    const detail = await published('{"payloadType":"a","payload":"","signatures":[]}');

    // Act
    const fetched = await source.fetch(PUBLISHER, detail);

    // Assess
    expect(fetched).toEqual({
      ok: true,
      bytes: new Uint8Array(Buffer.from('{"payloadType":"a","payload":"","signatures":[]}')),
      origin: `s3://${detail.bucket}/${detail.key}`,
      publisher,
    });
  });

  it('refuses bytes that are not the announced ones', async () => {
    // Prepare
    const detail = await published('{"first":1}');
    await published('{"replaced":2}', detail.key);

    // Act
    const fetched = await source.fetch(PUBLISHER, detail);

    // Assess
    expect(fetched).toMatchObject({
      ok: false,
      why: expect.stringContaining('changed since it was announced'),
    });
  });

  it('refuses an announced bundle that is not there', async () => {
    // Act
    const fetched = await source.fetch(PUBLISHER, {
      bucket: stores.emulators.bucketName,
      key: sharingKeys.bundle('f'.repeat(64)),
      digest: 'f'.repeat(64),
      keyId: publisher.keyArn,
    });

    // Assess
    expect(fetched).toMatchObject({ ok: false, why: expect.stringContaining('is not there') });
  });
});

describe('Handler: share-import', () => {
  it.each([
    ['an untrusted account', '999999999999', {}, 'account 999999999999 is not a trusted publisher'],
    ["a bucket not the publisher's", PUBLISHER, { bucket: 'someone-elses' }, 'is not in bucket'],
    [
      'a key outside the bundle prefix',
      PUBLISHER,
      { key: 'runs/r1/manifest.json' },
      'is not under shared/bundles/',
    ],
    [
      'a key climbing out of the prefix',
      PUBLISHER,
      { key: 'shared/bundles/../../runs/x' },
      'is not under shared/bundles/',
    ],
  ])(
    'drops an announcement from %s without reading or importing it',
    async (_case, account, change, why) => {
      // Prepare
      const detail = { ...(await published(`{"case":"${_case}"}`)), ...change };

      // Act
      const answer = await handler()(event(account, detail));

      // Assess
      expect(answer).toMatchObject({ outcome: 'refused', why: expect.stringContaining(why) });
      expect(await stores.artefacts.exists(sharingKeys.quarantined(detail.digest))).toBe(false);
    },
  );

  it('drops a malformed announcement, naming the bad field', async () => {
    // Act
    const answer = await handler()(
      event(PUBLISHER, { bucket: 'b', key: 'k', digest: 'not-hex', keyId: 'k' }),
    );

    // Assess
    expect(answer).toMatchObject({
      outcome: 'refused',
      why: expect.stringContaining('detail.digest'),
    });
  });

  it('drops an event of another source', async () => {
    // Act
    const answer = await handler()({ ...event(PUBLISHER, {}), source: 'aws.s3' });

    // Assess
    expect(answer).toMatchObject({ outcome: 'refused', why: expect.stringContaining('source') });
  });
});
