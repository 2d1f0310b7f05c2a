import type { S3Client } from '@aws-sdk/client-s3';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { createS3Client } from '../../lambdas/adapters/aws-clients.js';
import { S3ArtefactStore } from '../../lambdas/adapters/s3.js';
import { InvalidInputError, TransientError } from '../../lambdas/core/errors.js';
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';
import type { Emulators } from '../../local/emulators.js';
import { useEmulatorStores } from '../support/emulator-stores.js';

let emulators: Emulators;
let client: S3Client;
let store: S3ArtefactStore;

useEmulatorStores((stores) => ({ emulators, s3: client, artefacts: store } = stores));

/** Writes `count` small objects under the run's folder, a few at a time. */
async function fillRun(runId: string, count: number): Promise<string[]> {
  const keys = Array.from({ length: count }, (_, index) =>
    artefactKeys.iteration(runId, index + 1, 'prompt.md'),
  );
  for (let start = 0; start < keys.length; start += 50)
    await Promise.all(
      keys.slice(start, start + 50).map((Key) =>
        client.send(
          new PutObjectCommand({
            Bucket: emulators.bucketName,
            Key,
            Body: 'p',
            ContentLength: 1,
          }),
        ),
      ),
    );
  return keys;
}

/** A store whose DeleteObjects answers report the first `failing` rounds' keys as not deleted. */
function storeWhoseDeletesFail(rounds: number) {
  const faulty = createS3Client({
    endpoint: emulators.s3Endpoint,
    region: emulators.region,
    credentials: emulators.credentials,
  });
  let failed = 0;
  faulty.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName !== 'DeleteObjectsCommand' || failed >= rounds) return next(args);
      failed += 1;
      // S3 answers 200 with an <Error> per key it could not delete (throttling, a lock).
      const input = args.input as { Delete: { Objects: { Key: string }[] } };
      return {
        response: { statusCode: 200, headers: {} },
        output: {
          $metadata: {},
          Errors: input.Delete.Objects.map(({ Key }) => ({ Key, Code: 'SlowDown' })),
        },
      } as never;
    },
    { step: 'initialize', name: 'failDeletes' },
  );
  return {
    faultyStore: new S3ArtefactStore({ client: faulty, bucket: emulators.bucketName }),
    failedRounds: () => failed,
    close: () => faulty.destroy(),
  };
}

describe('Class: S3ArtefactStore', () => {
  describe('Method: deletePrefix', () => {
    it('deletes every object of a run past one listing of 1,000, and only that run’s', async () => {
      // Prepare: `prune-1/` must not take `prune-10/` with it.
      const keys = await fillRun('prune-1', 1_003);
      const neighbour = artefactKeys.manifest('prune-10');
      await store.put(neighbour, '{}');

      // Act
      const deleted = await store.deletePrefix(artefactKeys.run('prune-1'));

      // Assess
      expect(deleted).toBe(1_003);
      expect(await store.exists(keys[0]!)).toBe(false);
      expect(await store.exists(keys.at(-1)!)).toBe(false);
      expect(await store.exists(neighbour)).toBe(true);
    }, 60_000);

    it('is safe to repeat: a folder already empty deletes nothing', async () => {
      // Prepare
      await fillRun('prune-again', 2);
      await store.deletePrefix(artefactKeys.run('prune-again'));

      // Act
      const again = await store.deletePrefix(artefactKeys.run('prune-again'));

      // Assess
      expect(again).toBe(0);
    });

    it('lists again and retries the keys a DeleteObjects answer reports as not deleted', async () => {
      // Prepare
      const keys = await fillRun('prune-retry', 3);
      const { faultyStore, failedRounds, close } = storeWhoseDeletesFail(2);

      // Act
      const deleted = await faultyStore.deletePrefix(artefactKeys.run('prune-retry'));
      close();

      // Assess
      expect(failedRounds()).toBe(2);
      expect(deleted).toBe(3);
      for (const key of keys) expect(await store.exists(key)).toBe(false);
    });

    it('gives up with a TransientError when round after round deletes nothing', async () => {
      // Prepare
      const keys = await fillRun('prune-stuck', 1);
      const { faultyStore, close } = storeWhoseDeletesFail(Number.POSITIVE_INFINITY);

      // Act
      const attempt = faultyStore.deletePrefix(artefactKeys.run('prune-stuck'));

      // Assess
      await expect(attempt).rejects.toThrow(TransientError);
      close();
      expect(await store.exists(keys[0]!)).toBe(true);
    }, 30_000);

    it('refuses a prefix that is not a folder, before any call', async () => {
      await expect(store.deletePrefix('runs/prune')).rejects.toThrow(InvalidInputError);
      await expect(store.deletePrefix('')).rejects.toThrow(InvalidInputError);
    });
  });
});
