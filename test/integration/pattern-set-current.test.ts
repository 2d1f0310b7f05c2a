/**
 * DynamoS3PatternSetStore's reads against the emulators: the current set with its
 * fallback past unusable versions, one version, and the version list.
 */
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';
import { InvalidInputError } from '../../lambdas/core/errors.js';
import { PatternSetCorruptError } from '../../lambdas/core/patterns/errors.js';
import {
  nextProjectId,
  usePatternSetStores,
  type PatternSetFixture,
} from '../support/pattern-set-stores.js';

let fx: PatternSetFixture;
usePatternSetStores((fixture) => (fx = fixture));

describe('Class: DynamoS3PatternSetStore', () => {
  describe('Method: current', () => {
    it('is undefined for a project without a pattern set', async () => {
      // Act & Assess
      expect(await fx.store.current(nextProjectId('none'))).toBeUndefined();
    });

    it.each([
      ['bytes that are not JSON', '{"schemaVersion": "2.0", "patt', /^body is not JSON/],
      [
        'JSON that does not match PatternSetSchema',
        JSON.stringify({ schemaVersion: '2.0', version: 3, createdAt: 'yesterday', patterns: {} }),
        /^body does not match PatternSetSchema: createdAt: .*; patterns: /,
      ],
      [
        'a valid set with other content than published',
        JSON.stringify({
          schemaVersion: '2.0',
          version: 3,
          createdAt: '2026-01-01T00:00:00Z',
          patterns: [],
        }),
        /^body checksum [0-9a-f]{16} is not the recorded [0-9a-f]{16}$/,
      ],
    ])(
      'falls back to the previous version when the current body holds %s',
      async (_label, body, reason) => {
        // Prepare
        const projectId = nextProjectId('corrupt');
        await fx.publishVersions(projectId, 3);
        await fx.overwriteBody(projectId, 3, body);

        // Act
        const current = await fx.store.current(projectId);

        // Assess
        expect(current).toMatchObject({ version: 2, fallbackFrom: 3, pointer: { version: 3 } });
        expect(current?.fallbackReason).toMatch(reason);
        expect(current?.set.patterns[0]?.keywords).toEqual(['k2']);
        expect(current?.skipped?.map((entry) => entry.version)).toEqual([3]);
      },
    );

    it('falls back past every unusable ancestor, saying why each was refused', async () => {
      // Prepare
      const projectId = nextProjectId('missing');
      await fx.publishVersions(projectId, 3);
      await fx.s3.send(
        new DeleteObjectCommand({
          Bucket: fx.emulators.bucketName,
          Key: artefactKeys.patternSet(projectId, 3),
        }),
      );
      await fx.overwriteBody(projectId, 2, 'null');

      // Act
      const current = await fx.store.current(projectId);

      // Assess
      expect(current).toMatchObject({
        version: 1,
        fallbackFrom: 3,
        fallbackReason: 'body is missing',
      });
      expect(current?.skipped).toEqual([
        { version: 3, reason: 'body is missing' },
        { version: 2, reason: expect.stringMatching(/^body does not match PatternSetSchema/) },
      ]);
    });

    it('throws PatternSetCorruptError when no version is usable', async () => {
      // Prepare
      const projectId = nextProjectId('all-corrupt');
      await fx.publishVersions(projectId, 2);
      await fx.overwriteBody(projectId, 1, '');
      await fx.overwriteBody(projectId, 2, '[]');

      // Act
      const reading = fx.store.current(projectId);

      // Assess
      await expect(reading).rejects.toThrow(PatternSetCorruptError);
      await expect(reading).rejects.toThrow(/v2: body does not match .*\n {2}v1: body is not JSON/);
    });
  });

  describe('Method: listVersions', () => {
    it('lists only the versions above newerThan, newest first, when asked', async () => {
      // Prepare
      const projectId = nextProjectId('newer-than');
      await fx.publishVersions(projectId, 4);

      // Act
      const all = await fx.store.listVersions(projectId);
      const newer = await fx.store.listVersions(projectId, { newerThan: 2 });
      const none = await fx.store.listVersions(projectId, { newerThan: 4 });
      const fromStart = await fx.store.listVersions(projectId, { newerThan: 0 });

      // Assess
      expect(all.map((entry) => entry.version)).toEqual([4, 3, 2, 1]);
      expect(newer).toEqual(all.slice(0, 2));
      expect(none).toEqual([]);
      expect(fromStart).toEqual(all);
    });

    it('refuses a newerThan that is not a version number', async () => {
      await expect(
        fx.store.listVersions(nextProjectId('bad-newer'), { newerThan: -1 }),
      ).rejects.toThrow(/newerThan/);
    });
  });

  describe('Method: get', () => {
    it('returns a stored version, undefined for one never published', async () => {
      // Prepare
      const projectId = nextProjectId('get');
      await fx.publishVersions(projectId, 2);

      // Act & Assess
      expect((await fx.store.get(projectId, 1))?.patterns[0]?.keywords).toEqual(['k1']);
      expect(await fx.store.get(projectId, 3)).toBeUndefined();
    });

    it('throws PatternSetCorruptError for an unusable version and InvalidInputError for a bad number', async () => {
      // Prepare
      const projectId = nextProjectId('get-corrupt');
      await fx.publishVersions(projectId, 1);
      await fx.overwriteBody(projectId, 1, '{}');

      // Act & Assess
      await expect(fx.store.get(projectId, 1)).rejects.toThrow(PatternSetCorruptError);
      await expect(fx.store.get(projectId, 0)).rejects.toThrow(InvalidInputError);
      await expect(fx.store.get(projectId, 1_000_000)).rejects.toThrow(InvalidInputError);
    });
  });
});
