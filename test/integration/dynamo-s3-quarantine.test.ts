/**
 * The deployed quarantine against the emulators: the refused envelope kept whole in the
 * bucket, the reason in the table, a redelivery changing nothing.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { S3ArtefactStore } from '../../lambdas/adapters/s3.js';
import { DynamoS3Quarantine } from '../../lambdas/adapters/sharing/dynamo-s3-quarantine.js';
import { sharingKeys } from '../../lambdas/core/shared/sharing-keys.js';
import { InvalidInputError } from '../../lambdas/core/errors.js';
import type { QuarantinedBundle } from '../../lambdas/sharing-ports.js';
import { useEmulatorStores } from '../support/emulator-stores.js';

let quarantine: DynamoS3Quarantine;
let artefacts: S3ArtefactStore;

useEmulatorStores((stores) => {
  artefacts = stores.artefacts;
  quarantine = new DynamoS3Quarantine({
    client: stores.dynamo,
    tableName: stores.emulators.tableName,
    artefacts,
  });
});

function refused(text: string, at: string): { bundle: QuarantinedBundle; bytes: Buffer } {
  const bytes = Buffer.from(text);
  const digest = createHash('sha256').update(bytes).digest('hex');
  return {
    bytes,
    bundle: {
      digest,
      origin: `s3://publisher-bucket/shared/bundles/${digest}.dsse.json`,
      reason: 'bad_signature',
      detail: 'the signature does not verify with key arn:aws:kms:eu-west-1:111122223333:key/k1',
      at,
    },
  };
}

describe('Class: DynamoS3Quarantine', () => {
  it('keeps the envelope whole in the bucket and lists why, oldest first', async () => {
    // Prepare
    const later = refused(
      '{"payloadType":"x","payload":"","signatures":[]}',
      '2026-11-27T10:00:00.000Z',
    );
    const earlier = refused('{"tampered":true}', '2026-11-27T09:00:00.000Z');

    // Act
    await quarantine.put(later.bundle, later.bytes);
    await quarantine.put(earlier.bundle, earlier.bytes);

    // Assess
    const listed = await quarantine.list();
    expect(
      listed.filter((entry) => [later.bundle.digest, earlier.bundle.digest].includes(entry.digest)),
    ).toEqual([earlier.bundle, later.bundle]);
    expect(await artefacts.getText(sharingKeys.quarantined(later.bundle.digest))).toBe(
      later.bytes.toString(),
    );
  });

  it('leaves the first record of an envelope refused again', async () => {
    // Prepare
    const first = refused('{"redelivered":1}', '2026-11-27T11:00:00.000Z');
    await quarantine.put(first.bundle, first.bytes);

    // Act
    await quarantine.put(
      { ...first.bundle, at: '2026-11-27T12:00:00.000Z', detail: 'again' },
      first.bytes,
    );

    // Assess
    const records = (await quarantine.list()).filter(
      (entry) => entry.digest === first.bundle.digest,
    );
    expect(records).toEqual([first.bundle]);
  });

  it('refuses a digest that is not a SHA-256 before writing anything', async () => {
    // Prepare
    const bad = { ...refused('{}', '2026-11-27T13:00:00.000Z').bundle, digest: '../runs/x' };
    const before = (await quarantine.list()).length;

    // Act
    const failure = quarantine.put(bad, Buffer.from('{}'));

    // Assess
    await expect(failure).rejects.toBeInstanceOf(InvalidInputError);
    expect(await quarantine.list()).toHaveLength(before);
  });
});
