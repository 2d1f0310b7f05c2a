/**
 * DynamoS3PatternSetStore's rollback against the emulators: the pointer moved back on
 * the version the caller read, and refused when the target is unusable or the caller stale.
 */
import { describe, expect, it } from 'vitest';
import { patternSetKeys } from '../../lambdas/adapters/pattern-sets/pattern-set-keys.js';
import { NotFoundError, VersionConflictError } from '../../lambdas/core/errors.js';
import { PatternSetCorruptError } from '../../lambdas/core/patterns/errors.js';
import {
  draft,
  nextProjectId,
  usePatternSetStores,
  type PatternSetFixture,
} from '../support/pattern-set-stores.js';

let fx: PatternSetFixture;
usePatternSetStores((fixture) => (fx = fixture));

describe('Class: DynamoS3PatternSetStore', () => {
  describe('Method: rollback', () => {
    it('points back at an earlier version and keeps every version', async () => {
      // Prepare
      const projectId = nextProjectId('rollback');
      await fx.publishVersions(projectId, 3);

      // Act
      const pointer = await fx.store.rollback(projectId, 1, {
        expectedCurrent: 3,
        reason: 'regression: gap +0.4',
      });

      // Assess
      expect(pointer).toMatchObject({
        version: 1,
        pointerVersion: 4,
        change: 'rollback',
        reason: 'regression: gap +0.4',
      });
      const current = await fx.store.current(projectId);
      expect(current).toMatchObject({ version: 1, pointer });
      expect(current).not.toHaveProperty('fallbackFrom');
      expect((await fx.store.listVersions(projectId)).map((entry) => entry.version)).toEqual([
        3, 2, 1,
      ]);
    });

    it('gives the next publish a fresh number whose parent is the rolled-back-to version', async () => {
      // Prepare
      const projectId = nextProjectId('after-rollback');
      await fx.publishVersions(projectId, 3);
      await fx.store.rollback(projectId, 1, { expectedCurrent: 3, reason: 'regression' });

      // Act
      const version = await fx.store.publish(projectId, draft('again'), {
        expectedCurrent: 1,
        reason: 'retry learning',
      });

      // Assess
      expect(version).toBe(4);
      expect((await fx.store.current(projectId))?.set).toMatchObject({
        version: 4,
        parentVersion: 1,
      });
    });

    it('repairs a corrupt current version by pointing at the fallback', async () => {
      // Prepare
      const projectId = nextProjectId('repair');
      await fx.publishVersions(projectId, 3);
      await fx.overwriteBody(projectId, 3, 'garbage');
      const fallback = await fx.store.current(projectId);

      // Act
      await fx.store.rollback(projectId, fallback?.version ?? 0, {
        expectedCurrent: fallback?.fallbackFrom ?? 0,
        reason: `v3 unusable: ${fallback?.fallbackReason ?? ''}`,
      });

      // Assess
      const current = await fx.store.current(projectId);
      expect(current).toMatchObject({ version: 2, pointer: { version: 2 } });
      expect(current).not.toHaveProperty('fallbackFrom');
    });

    it('refuses an unusable target, a stale caller, a missing version and the current one', async () => {
      // Prepare
      const projectId = nextProjectId('rollback-refused');
      await fx.publishVersions(projectId, 3);
      await fx.overwriteBody(projectId, 1, '{"schemaVersion": "2.0"}');
      const pointerBefore = await fx.readRaw(projectId, patternSetKeys.pointerSk);

      const rollback = (toVersion: number, expectedCurrent: number, project = projectId) =>
        fx.store.rollback(project, toVersion, { expectedCurrent, reason: 'r' });

      // Act & Assess
      await expect(rollback(1, 3)).rejects.toThrow(PatternSetCorruptError);
      await expect(rollback(1, 3)).rejects.toThrow(
        /v1: body does not match PatternSetSchema: version: /,
      );
      await expect(rollback(2, 2)).rejects.toThrow(VersionConflictError);
      await expect(rollback(7, 3)).rejects.toThrow(NotFoundError);
      await expect(rollback(3, 3)).rejects.toThrow(/toVersion: version 3 is already current/);
      await expect(rollback(1, 1, nextProjectId('empty'))).rejects.toThrow(NotFoundError);
      expect(await fx.readRaw(projectId, patternSetKeys.pointerSk)).toEqual(pointerBefore);
    });

    it('refuses when the pointer moved and came back since the caller read it', async () => {
      // Prepare: between this rollback's read and its write, a rollback and a roll-forward
      const projectId = nextProjectId('aba');
      await fx.publishVersions(projectId, 2);
      let moved = false;
      const { hookedStore, close } = fx.storeWithPutHook(async ({ sk }) => {
        if (sk !== patternSetKeys.pointerSk || moved) return;
        moved = true;
        await fx.store.rollback(projectId, 1, { expectedCurrent: 2, reason: 'away' });
        await fx.store.rollback(projectId, 2, { expectedCurrent: 1, reason: 'back' });
      });

      // Act
      const rollback = hookedStore.rollback(projectId, 1, { expectedCurrent: 2, reason: 'late' });

      // Assess
      await expect(rollback).rejects.toThrow(
        'expected version 2 (pointer version 2), but now version 2 (pointer version 4); the pointer was not moved',
      );
      close();
      expect((await fx.store.current(projectId))?.pointer).toMatchObject({
        version: 2,
        pointerVersion: 4,
        reason: 'back',
      });
    });
  });
});
