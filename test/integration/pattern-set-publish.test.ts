/**
 * DynamoS3PatternSetStore's publish against the emulators: the body, the version item and
 * the pointer written in that order, a stale caller refused, a lost reply recognised, a
 * lost pointer race leaving an orphan; and publishNext's retry finding its own version.
 */
import { describe, expect, it } from 'vitest';
import { patternSetKeys } from '../../lambdas/adapters/pattern-sets/pattern-set-keys.js';
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';
import { InvalidInputError, VersionConflictError } from '../../lambdas/core/errors.js';
import { publishNext } from '../../lambdas/core/steps/next-version.js';
import {
  parsePatternSetDraft,
  patternSetChecksum,
} from '../../lambdas/core/patterns/pattern-set-versions.js';
import type { PatternSetDraft } from '../../lambdas/core/schemas/pattern-sets.js';
import { makePattern } from '../support/evaluation.js';
import {
  draft,
  nextProjectId,
  usePatternSetStores,
  type PatternSetFixture,
} from '../support/pattern-set-stores.js';

let fx: PatternSetFixture;
usePatternSetStores((fixture) => (fx = fixture));

describe('Class: DynamoS3PatternSetStore', () => {
  describe('Method: publish', () => {
    it('publishes the first version and makes it current', async () => {
      // Prepare
      const projectId = nextProjectId('first');

      // Act
      const version = await fx.store.publish(projectId, draft('user can'), {
        expectedCurrent: null,
        reason: 'migrated from v1',
        runId: 'run-1',
        iteration: 0,
      });

      // Assess
      expect(version).toBe(1);
      const current = await fx.store.current(projectId);
      expect(current).toMatchObject({
        version: 1,
        pointer: { version: 1, pointerVersion: 1, change: 'publish', reason: 'migrated from v1' },
      });
      expect(current).not.toHaveProperty('fallbackFrom');
      expect(current?.set).toMatchObject({ version: 1, reason: 'migrated from v1' });
      expect(current?.set).not.toHaveProperty('parentVersion');
      expect(current?.set.patterns[0]?.keywords).toEqual(['user can']);
      expect(await fx.artefacts.exists(artefactKeys.patternSet(projectId, 1))).toBe(true);
    });

    it('publishes a second version on the first, listed newest first with its metadata', async () => {
      // Prepare
      const projectId = nextProjectId('second');
      await fx.publishVersions(projectId, 1);

      // Act
      const version = await fx.store.publish(projectId, draft('saves time', 0.7), {
        expectedCurrent: 1,
        reason: 'validated p_001',
        runId: 'run-2',
        iteration: 5,
      });

      // Assess
      expect(version).toBe(2);
      const current = await fx.store.current(projectId);
      expect(current?.version).toBe(2);
      expect(current?.set).toMatchObject({ version: 2, parentVersion: 1 });
      const versions = await fx.store.listVersions(projectId);
      expect(versions.map((entry) => entry.version)).toEqual([2, 1]);
      expect(versions[0]).toEqual({
        version: 2,
        parentVersion: 1,
        createdAt: current?.set.createdAt,
        reason: 'validated p_001',
        patternCount: { active: 1, provisional: 0, rejected: 0, pruned: 0 },
        checksum: patternSetChecksum(parsePatternSetDraft(draft('saves time', 0.7))),
        createdBy: { runId: 'run-2', iteration: 5 },
      });
      expect(versions[1]?.createdBy).toEqual({});
    });

    it('refuses a stale expectedCurrent and writes nothing', async () => {
      // Prepare
      const projectId = nextProjectId('stale');
      await fx.publishVersions(projectId, 2);
      const pointerBefore = await fx.readRaw(projectId, patternSetKeys.pointerSk);

      // Act
      const stale = fx.store.publish(projectId, draft('other'), {
        expectedCurrent: 1,
        reason: 'late',
      });

      // Assess
      await expect(stale).rejects.toThrow(VersionConflictError);
      await expect(stale).rejects.toThrow(
        `pattern set of project ${projectId} was not published: expected current version 1, but the current version is 2`,
      );
      expect(await fx.readRaw(projectId, patternSetKeys.pointerSk)).toEqual(pointerBefore);
      expect((await fx.store.listVersions(projectId)).map((entry) => entry.version)).toEqual([
        2, 1,
      ]);
      expect(await fx.artefacts.exists(artefactKeys.patternSet(projectId, 3))).toBe(false);
    });

    it('refuses a first publish that expects a version, and a later one that expects none', async () => {
      // Prepare
      const empty = nextProjectId('expects-some');
      const published = nextProjectId('expects-none');
      await fx.publishVersions(published, 1);

      // Act & Assess
      await expect(
        fx.store.publish(empty, draft('a'), { expectedCurrent: 1, reason: 'r' }),
      ).rejects.toThrow('expected current version 1, but the current version is none');
      await expect(
        fx.store.publish(published, draft('a'), { expectedCurrent: null, reason: 'r' }),
      ).rejects.toThrow('expected current version none, but the current version is 1');
      expect(await fx.store.current(empty)).toBeUndefined();
      expect(await fx.store.listVersions(empty)).toEqual([]);
    });

    it('refuses a malformed set with its zod paths and writes nothing', async () => {
      // Prepare
      const projectId = nextProjectId('malformed');
      await fx.publishVersions(projectId, 1);
      const pointerBefore = await fx.readRaw(projectId, patternSetKeys.pointerSk);
      const malformed = {
        schemaVersion: '2.0',
        patterns: [
          { ...makePattern(), weight: 2.5 },
          { ...makePattern(), id: 'not-an-id' },
        ],
      } as PatternSetDraft;

      // Act
      const refused = fx.store.publish(projectId, malformed, { expectedCurrent: 1, reason: 'bad' });

      // Assess
      await expect(refused).rejects.toThrow(InvalidInputError);
      const error = (await refused.catch((caught: unknown) => caught)) as InvalidInputError;
      expect(error.issues).toEqual([
        expect.stringMatching(/^patterns\[0\]\.weight: Too big/),
        expect.stringMatching(/^patterns\[1\]\.id: /),
      ]);
      expect(await fx.readRaw(projectId, patternSetKeys.versionSk(2))).toBeUndefined();
      expect(await fx.artefacts.exists(artefactKeys.patternSet(projectId, 2))).toBe(false);
      expect(await fx.readRaw(projectId, patternSetKeys.pointerSk)).toEqual(pointerBefore);
    });

    it('refuses malformed options and an unsafe project id', async () => {
      // Act & Assess
      await expect(
        fx.store.publish(nextProjectId('options'), draft('a'), {
          expectedCurrent: null,
          reason: '',
        }),
      ).rejects.toThrow(/publish options is invalid:\n {2}reason: /);
      await expect(
        fx.store.publish('../escape', draft('a'), { expectedCurrent: null, reason: 'r' }),
      ).rejects.toThrow(InvalidInputError);
    });

    it('skips a number whose body exists without a version item (a publish that crashed)', async () => {
      // Prepare
      const projectId = nextProjectId('crashed');
      await fx.publishVersions(projectId, 1);
      await fx.overwriteBody(projectId, 2, '{"left": "by a crashed publish"}');

      // Act
      const version = await fx.store.publish(projectId, draft('after crash'), {
        expectedCurrent: 1,
        reason: 'r',
      });

      // Assess
      expect(version).toBe(3);
      expect((await fx.store.current(projectId))?.set).toMatchObject({
        version: 3,
        parentVersion: 1,
      });
      expect((await fx.store.listVersions(projectId)).map((entry) => entry.version)).toEqual([
        3, 1,
      ]);
    });

    it.each([
      ['the version item', 1, 3],
      ['the pointer', 2, 3],
    ])(
      'succeeds when the SDK retries the put of %s whose reply was lost',
      async (_label, lostPut, expectedPuts) => {
        // Prepare
        const projectId = nextProjectId('lost-reply');
        await fx.publishVersions(projectId, 1);
        const { hookedStore, puts, close } = fx.storeWithPutHook(async ({ count }) =>
          count === lostPut ? 'lose-reply' : undefined,
        );

        // Act
        const version = await hookedStore.publish(projectId, draft('retried'), {
          expectedCurrent: 1,
          reason: 'retried write',
        });
        close();

        // Assess: the retry met its own item, not a conflict
        expect(puts()).toBe(expectedPuts);
        expect(version).toBe(2);
        const current = await fx.store.current(projectId);
        expect(current?.version).toBe(2);
        expect(current?.pointer.pointerVersion).toBe(2);
      },
    );

    it('leaves its version as an orphan when another publish moves the pointer first', async () => {
      // Prepare: the other publish lands between this one's version item and pointer move
      const projectId = nextProjectId('orphan');
      await fx.publishVersions(projectId, 1);
      let rival: number | undefined;
      const { hookedStore, close } = fx.storeWithPutHook(async ({ sk }) => {
        if (sk === patternSetKeys.pointerSk && rival === undefined)
          rival = await fx.store.publish(projectId, draft('rival'), {
            expectedCurrent: 1,
            reason: 'rival',
          });
      });

      // Act
      const losing = hookedStore.publish(projectId, draft('loser'), {
        expectedCurrent: 1,
        reason: 'loser',
      });

      // Assess
      await expect(losing).rejects.toThrow(VersionConflictError);
      await expect(losing).rejects.toThrow(
        'expected version 1 (pointer version 1), but now version 3 (pointer version 2); version 2 stays stored but is not current (an orphan)',
      );
      close();
      expect(rival).toBe(3);
      expect((await fx.store.current(projectId))?.version).toBe(3);
      const versions = await fx.store.listVersions(projectId);
      expect(versions.map((entry) => [entry.version, entry.parentVersion])).toEqual([
        [3, 1],
        [2, 1],
        [1, undefined],
      ]);

      // Act: the current version breaks; its parent stands in, not the orphan
      await fx.overwriteBody(projectId, 3, 'garbage');
      const fallback = await fx.store.current(projectId);

      // Assess
      expect(fallback).toMatchObject({ version: 1, fallbackFrom: 3 });
    });
  });

  describe('Function: publishNext (analyze-gap)', () => {
    it('finds the version a retried step already published instead of publishing again', async () => {
      // Prepare: v1 and v2 by others; this iteration scored with v2 and published v3, then
      // another run published v4 before the step was retried.
      const projectId = nextProjectId('publish-next');
      await fx.publishVersions(projectId, 2);
      const scoredWith = (await fx.store.current(projectId))?.set;
      if (!scoredWith) throw new Error('v2 expected');
      const change = {
        iteration: 7,
        scoredWith,
        patterns: [...scoredWith.patterns, makePattern({ id: 'p_002', keywords: ['learned'] })],
        rolledBackTo: undefined,
        rolledBack: [],
        reason: 'iteration 7: 1 pattern learned',
      };
      const run = { projectId, runId: 'run-a' };
      const first = await publishNext({ patternSets: fx.store }, run, change);
      await fx.store.publish(projectId, draft('other run'), {
        expectedCurrent: 3,
        reason: 'other',
      });

      // Act
      const again = await publishNext({ patternSets: fx.store }, run, change);

      // Assess
      expect(first).toBe(3);
      expect(again).toBe(3);
      expect((await fx.store.listVersions(projectId)).map((entry) => entry.version)).toEqual([
        4, 3, 2, 1,
      ]);
    });
  });
});
