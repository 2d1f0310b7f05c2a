import type { S3Client } from '@aws-sdk/client-s3';
import { HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { createS3Client } from '../../lambdas/adapters/aws-clients.js';
import { S3ArtefactStore } from '../../lambdas/adapters/s3.js';
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';
import {
  ArtefactDamagedError,
  ArtefactExistsError,
  NotFoundError,
  TransientError,
} from '../../lambdas/core/errors.js';
import type { Emulators } from '../../local/emulators.js';
import { unreachableConnection, useEmulatorStores } from '../support/emulator-stores.js';

let emulators: Emulators;
let client: S3Client;
let store: S3ArtefactStore;

useEmulatorStores((stores) => ({ emulators, s3: client, artefacts: store } = stores));

/**
 * A store that sees what real S3 answers when another write landed between its HeadObject
 * and its PutObject (s3rver ignores `If-None-Match`): HeadObject says 404, PutObject says
 * 412 without writing.
 */
function storeMeeting412() {
  const racing = createS3Client({
    endpoint: emulators.s3Endpoint,
    region: emulators.region,
    credentials: emulators.credentials,
    maxAttempts: 1,
  });
  racing.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'HeadObjectCommand')
        throw Object.assign(new Error('Not Found'), {
          name: 'NotFound',
          $metadata: { httpStatusCode: 404 },
        });
      if (context.commandName === 'PutObjectCommand')
        throw Object.assign(new Error('At least one of the pre-conditions did not hold'), {
          name: 'PreconditionFailed',
          $metadata: { httpStatusCode: 412 },
        });
      return next(args);
    },
    { step: 'initialize', name: 'simulate412' },
  );
  return {
    racingStore: new S3ArtefactStore({ client: racing, bucket: emulators.bucketName }),
    close: () => racing.destroy(),
  };
}

describe('Class: S3ArtefactStore', () => {
  describe('Method: put', () => {
    it('writes text that getText reads back, with a content type from the extension', async () => {
      // Prepare
      const key = artefactKeys.manifest('put-text');
      const body = JSON.stringify({ runId: 'put-text', note: 'Grüße ✓' });

      // Act
      await store.put(key, body);

      // Assess
      expect(await store.getText(key)).toBe(body);
      const head = await client.send(
        new HeadObjectCommand({ Bucket: emulators.bucketName, Key: key }),
      );
      expect(head.ContentType).toBe('application/json');
    });

    it('writes bytes', async () => {
      // Prepare
      const key = artefactKeys.iteration('put-bytes', 1, 'diff.patch');
      const body = new TextEncoder().encode('--- a/x\n+++ b/x\n');

      // Act
      await store.put(key, body);

      // Assess
      expect(await store.getText(key)).toBe('--- a/x\n+++ b/x\n');
    });

    it('refuses a second write to the same key and keeps the first content', async () => {
      // Prepare
      const key = artefactKeys.iteration('write-once', 2, 'gap.json');
      await store.put(key, '{"first":true}');

      // Act
      const second = store.put(key, '{"second":true}');

      // Assess
      await expect(second).rejects.toThrow(ArtefactExistsError);
      await expect(second).rejects.toThrow(`artefact already exists: ${key}`);
      expect(await store.getText(key)).toBe('{"first":true}');
    });

    it('accepts a second write of the same bytes (a retried put) and keeps the object', async () => {
      // Prepare
      const key = artefactKeys.iteration('write-again', 1, 'result.json');
      const body = '{"outcome":"passed","note":"Grüße"}';
      await store.put(key, body);

      // Act: the same text, then the same bytes as a Uint8Array
      await store.put(key, body);
      await store.put(key, new TextEncoder().encode(body));

      // Assess
      expect(await store.getText(key)).toBe(body);
    });

    it('on a 412 from S3, accepts its own bytes and refuses others', async () => {
      // Prepare: the first attempt landed; the retry meets it as S3 does
      const key = artefactKeys.iteration('412', 1, 'gates.json');
      await store.put(key, '{"gates":[]}');
      const { racingStore, close } = storeMeeting412();

      // Act (settled together: a rejection must not sit unobserved while the other runs)
      const [same, other] = await Promise.allSettled([
        racingStore.put(key, '{"gates":[]}'),
        racingStore.put(key, '{"gates":[1]}'),
      ]);

      // Assess
      expect(same).toEqual({ status: 'fulfilled', value: undefined });
      expect(other.status === 'rejected' && other.reason).toBeInstanceOf(ArtefactExistsError);
      close();
      expect(await store.getText(key)).toBe('{"gates":[]}');
    });
  });

  describe('Method: getText', () => {
    it('refuses bytes that do not match the digest stored with them, naming the artefact', async () => {
      // Prepare: bytes written past the store, carrying the digest of other bytes.
      const key = artefactKeys.iteration('digest', 1, 'prompt.md');
      await store.put(artefactKeys.iteration('digest', 2, 'prompt.md'), '# as written\n');
      const head = await client.send(
        new HeadObjectCommand({
          Bucket: emulators.bucketName,
          Key: artefactKeys.iteration('digest', 2, 'prompt.md'),
        }),
      );
      await client.send(
        new PutObjectCommand({
          Bucket: emulators.bucketName,
          Key: key,
          Body: '# changed\n',
          Metadata: head.Metadata,
        }),
      );

      // Act
      const read = store.getText(key);

      // Assess
      await expect(read).rejects.toThrow(ArtefactDamagedError);
      await expect(read).rejects.toThrow(
        new RegExp(`artefact s3://${emulators.bucketName}/${key} changed after it was written`),
      );
      expect(head.Metadata?.sha256).toMatch(/^[0-9a-f]{64}$/);
    });

    it('reads an object written before digests were kept (none stored) as it is', async () => {
      // Prepare
      const key = artefactKeys.iteration('no-digest', 1, 'prompt.md');
      await client.send(
        new PutObjectCommand({ Bucket: emulators.bucketName, Key: key, Body: '# older\n' }),
      );

      // Act + Assess
      expect(await store.getText(key)).toBe('# older\n');
    });

    it('throws NotFoundError for a key that does not exist', async () => {
      // Act
      const read = store.getText('runs/missing/manifest.json');

      // Assess
      await expect(read).rejects.toThrow(NotFoundError);
      await expect(read).rejects.toThrow(
        `artefact not found: s3://${emulators.bucketName}/runs/missing/manifest.json`,
      );
    });
  });

  describe('Method: exists', () => {
    it('tells a written key from a missing one', async () => {
      // Prepare
      const key = artefactKeys.summary('exists');
      await store.put(key, '{}');

      // Act
      const [present, absent] = await Promise.all([
        store.exists(key),
        store.exists(artefactKeys.summary('never-written')),
      ]);

      // Assess
      expect(present).toBe(true);
      expect(absent).toBe(false);
    });

    it('turns an unreachable endpoint into a TransientError', async () => {
      // Prepare
      const unreachable = createS3Client(unreachableConnection(emulators));
      const broken = new S3ArtefactStore({ client: unreachable, bucket: emulators.bucketName });

      // Act
      const check = broken.exists('runs/x/manifest.json');

      // Assess
      await expect(check).rejects.toThrow(TransientError);
      unreachable.destroy();
    });
  });

  describe('Method: locate', () => {
    it('defaults to an s3:// URI and can be told otherwise', () => {
      // Prepare
      const custom = new S3ArtefactStore({
        client,
        bucket: emulators.bucketName,
        locateAs: (key) => `/data/s3/${key}`,
      });

      // Act & Assess
      expect(store.locate('runs/r/manifest.json')).toBe(
        `s3://${emulators.bucketName}/runs/r/manifest.json`,
      );
      expect(custom.locate('runs/r/manifest.json')).toBe('/data/s3/runs/r/manifest.json');
    });
  });
});
