import { Buffer } from 'node:buffer';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoS3PatternSetStore, patternSetKeys } from '../../lambdas/adapters/pattern-sets.js';
import type { S3ArtefactStore } from '../../lambdas/adapters/s3.js';
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';
import {
  InvalidInputError,
  NotFoundError,
  VersionConflictError,
} from '../../lambdas/core/errors.js';
import { publishNext } from '../../lambdas/core/steps/next-version.js';
import { PatternSetCorruptError } from '../../lambdas/core/patterns/errors.js';
import {
  parsePatternSetDraft,
  patternSetChecksum,
} from '../../lambdas/core/patterns/pattern-set-versions.js';
import type { PatternSetDraft } from '../../lambdas/core/schemas/pattern-sets.js';
import type { Clock } from '../../lambdas/ports.js';
import type { Emulators } from '../../local/emulators.js';
import { useEmulatorStores } from '../support/emulator-stores.js';
import { makePattern } from '../support/evaluation.js';

let emulators: Emulators;
let dynamo: DynamoDBDocumentClient;
let s3: S3Client;
let artefacts: S3ArtefactStore;
let store: DynamoS3PatternSetStore;

/** One second later at every reading, so every stamp differs. */
function steppingClock(start = Date.parse('2026-02-01T10:00:00Z')): Clock {
  let next = start;
  return {
    now: () => {
      const now = new Date(next);
      next += 1_000;
      return now;
    },
  };
}

useEmulatorStores((stores) => {
  ({ emulators, dynamo, s3, artefacts } = stores);
  store = new DynamoS3PatternSetStore({
    client: dynamo,
    tableName: emulators.tableName,
    artefacts,
    clock: steppingClock(),
  });
});

/** Every test uses its own project: the table and bucket are shared by the whole file. */
let projectCounter = 0;
function nextProjectId(label: string): string {
  projectCounter += 1;
  return `${label}-${projectCounter}`;
}

/** A valid draft whose single pattern is told apart by its keyword. */
function draft(keyword: string, weight = 1): PatternSetDraft {
  return {
    schemaVersion: '2.0',
    patterns: [makePattern({ id: 'p_001', keywords: [keyword], weight })],
  };
}

/** Publishes `count` versions, each on the previous one: v1..v{count}. */
async function publishVersions(projectId: string, count: number): Promise<void> {
  for (let version = 1; version <= count; version += 1)
    await store.publish(projectId, draft(`k${version}`), {
      expectedCurrent: version === 1 ? null : version - 1,
      reason: `change ${version}`,
    });
}

async function readRaw(projectId: string, sk: string) {
  const result = await dynamo.send(
    new GetCommand({
      TableName: emulators.tableName,
      Key: { pk: patternSetKeys.projectPk(projectId), sk },
      ConsistentRead: true,
    }),
  );
  return result.Item;
}

/** Replaces a body behind the store's back (no If-None-Match), as corruption would. */
async function overwriteBody(projectId: string, version: number, body: string): Promise<void> {
  await s3.send(
    new PutObjectCommand({
      Bucket: emulators.bucketName,
      Key: artefactKeys.patternSet(projectId, version),
      Body: body,
      ContentLength: Buffer.byteLength(body),
    }),
  );
}

/**
 * A store whose DynamoDB client runs `intercept` before each PutItem it sends, with the
 * item's sort key and the put's number (1-based).
 */
function storeWithPutHook(
  intercept: (put: { sk: string | undefined; count: number }) => Promise<'lose-reply' | void>,
) {
  const hooked = new DynamoDBClient({
    endpoint: emulators.dynamoEndpoint,
    region: emulators.region,
    credentials: emulators.credentials,
    maxAttempts: 4,
  });
  let count = 0;
  hooked.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName !== 'PutItemCommand') return next(args);
      count += 1;
      const sk = (args.input as { Item?: { sk?: { S?: string } } }).Item?.sk?.S;
      const action = await intercept({ sk, count });
      const result = await next(args);
      // The write reached the table; its reply is lost as a reset connection loses it.
      if (action === 'lose-reply')
        throw Object.assign(new Error('socket hang up'), { name: 'Error', code: 'ECONNRESET' });
      return result;
    },
    { step: 'deserialize', name: 'putHook' },
  );
  return {
    hookedStore: new DynamoS3PatternSetStore({
      client: hooked,
      tableName: emulators.tableName,
      artefacts,
      clock: steppingClock(Date.parse('2026-03-01T00:00:00Z')),
    }),
    puts: () => count,
    close: () => hooked.destroy(),
  };
}

describe('Class: DynamoS3PatternSetStore', () => {
  describe('Method: publish', () => {
    it('publishes the first version and makes it current', async () => {
      // Prepare
      const projectId = nextProjectId('first');

      // Act
      const version = await store.publish(projectId, draft('user can'), {
        expectedCurrent: null,
        reason: 'migrated from v1',
        runId: 'run-1',
        iteration: 0,
      });

      // Assess
      expect(version).toBe(1);
      const current = await store.current(projectId);
      expect(current).toMatchObject({
        version: 1,
        pointer: { version: 1, pointerVersion: 1, change: 'publish', reason: 'migrated from v1' },
      });
      expect(current).not.toHaveProperty('fallbackFrom');
      expect(current?.set).toMatchObject({ version: 1, reason: 'migrated from v1' });
      expect(current?.set).not.toHaveProperty('parentVersion');
      expect(current?.set.patterns[0]?.keywords).toEqual(['user can']);
      expect(await artefacts.exists(artefactKeys.patternSet(projectId, 1))).toBe(true);
    });

    it('publishes a second version on the first, listed newest first with its metadata', async () => {
      // Prepare
      const projectId = nextProjectId('second');
      await publishVersions(projectId, 1);

      // Act
      const version = await store.publish(projectId, draft('saves time', 0.7), {
        expectedCurrent: 1,
        reason: 'validated p_001',
        runId: 'run-2',
        iteration: 5,
      });

      // Assess
      expect(version).toBe(2);
      const current = await store.current(projectId);
      expect(current?.version).toBe(2);
      expect(current?.set).toMatchObject({ version: 2, parentVersion: 1 });
      const versions = await store.listVersions(projectId);
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
      await publishVersions(projectId, 2);
      const pointerBefore = await readRaw(projectId, patternSetKeys.pointerSk);

      // Act
      const stale = store.publish(projectId, draft('other'), {
        expectedCurrent: 1,
        reason: 'late',
      });

      // Assess
      await expect(stale).rejects.toThrow(VersionConflictError);
      await expect(stale).rejects.toThrow(
        `pattern set of project ${projectId} was not published: expected current version 1, but the current version is 2`,
      );
      expect(await readRaw(projectId, patternSetKeys.pointerSk)).toEqual(pointerBefore);
      expect((await store.listVersions(projectId)).map((entry) => entry.version)).toEqual([2, 1]);
      expect(await artefacts.exists(artefactKeys.patternSet(projectId, 3))).toBe(false);
    });

    it('refuses a first publish that expects a version, and a later one that expects none', async () => {
      // Prepare
      const empty = nextProjectId('expects-some');
      const published = nextProjectId('expects-none');
      await publishVersions(published, 1);

      // Act & Assess
      await expect(
        store.publish(empty, draft('a'), { expectedCurrent: 1, reason: 'r' }),
      ).rejects.toThrow('expected current version 1, but the current version is none');
      await expect(
        store.publish(published, draft('a'), { expectedCurrent: null, reason: 'r' }),
      ).rejects.toThrow('expected current version none, but the current version is 1');
      expect(await store.current(empty)).toBeUndefined();
      expect(await store.listVersions(empty)).toEqual([]);
    });

    it('refuses a malformed set with its zod paths and writes nothing', async () => {
      // Prepare
      const projectId = nextProjectId('malformed');
      await publishVersions(projectId, 1);
      const pointerBefore = await readRaw(projectId, patternSetKeys.pointerSk);
      const malformed = {
        schemaVersion: '2.0',
        patterns: [
          { ...makePattern(), weight: 2.5 },
          { ...makePattern(), id: 'not-an-id' },
        ],
      } as PatternSetDraft;

      // Act
      const refused = store.publish(projectId, malformed, { expectedCurrent: 1, reason: 'bad' });

      // Assess
      await expect(refused).rejects.toThrow(InvalidInputError);
      const error = (await refused.catch((caught: unknown) => caught)) as InvalidInputError;
      expect(error.issues).toEqual([
        expect.stringMatching(/^patterns\[0\]\.weight: Too big/),
        expect.stringMatching(/^patterns\[1\]\.id: /),
      ]);
      expect(await readRaw(projectId, patternSetKeys.versionSk(2))).toBeUndefined();
      expect(await artefacts.exists(artefactKeys.patternSet(projectId, 2))).toBe(false);
      expect(await readRaw(projectId, patternSetKeys.pointerSk)).toEqual(pointerBefore);
    });

    it('refuses malformed options and an unsafe project id', async () => {
      // Act & Assess
      await expect(
        store.publish(nextProjectId('options'), draft('a'), { expectedCurrent: null, reason: '' }),
      ).rejects.toThrow(/publish options is invalid:\n {2}reason: /);
      await expect(
        store.publish('../escape', draft('a'), { expectedCurrent: null, reason: 'r' }),
      ).rejects.toThrow(InvalidInputError);
    });

    it('skips a number whose body exists without a version item (a publish that crashed)', async () => {
      // Prepare
      const projectId = nextProjectId('crashed');
      await publishVersions(projectId, 1);
      await overwriteBody(projectId, 2, '{"left": "by a crashed publish"}');

      // Act
      const version = await store.publish(projectId, draft('after crash'), {
        expectedCurrent: 1,
        reason: 'r',
      });

      // Assess
      expect(version).toBe(3);
      expect((await store.current(projectId))?.set).toMatchObject({ version: 3, parentVersion: 1 });
      expect((await store.listVersions(projectId)).map((entry) => entry.version)).toEqual([3, 1]);
    });

    it.each([
      ['the version item', 1, 3],
      ['the pointer', 2, 3],
    ])(
      'succeeds when the SDK retries the put of %s whose reply was lost',
      async (_label, lostPut, expectedPuts) => {
        // Prepare
        const projectId = nextProjectId('lost-reply');
        await publishVersions(projectId, 1);
        const { hookedStore, puts, close } = storeWithPutHook(async ({ count }) =>
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
        const current = await store.current(projectId);
        expect(current?.version).toBe(2);
        expect(current?.pointer.pointerVersion).toBe(2);
      },
    );

    it('leaves its version as an orphan when another publish moves the pointer first', async () => {
      // Prepare: the other publish lands between this one's version item and pointer move
      const projectId = nextProjectId('orphan');
      await publishVersions(projectId, 1);
      let rival: number | undefined;
      const { hookedStore, close } = storeWithPutHook(async ({ sk }) => {
        if (sk === patternSetKeys.pointerSk && rival === undefined)
          rival = await store.publish(projectId, draft('rival'), {
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
      expect((await store.current(projectId))?.version).toBe(3);
      const versions = await store.listVersions(projectId);
      expect(versions.map((entry) => [entry.version, entry.parentVersion])).toEqual([
        [3, 1],
        [2, 1],
        [1, undefined],
      ]);

      // Act: the current version breaks; its parent stands in, not the orphan
      await overwriteBody(projectId, 3, 'garbage');
      const fallback = await store.current(projectId);

      // Assess
      expect(fallback).toMatchObject({ version: 1, fallbackFrom: 3 });
    });
  });

  describe('Method: current', () => {
    it('is undefined for a project without a pattern set', async () => {
      // Act & Assess
      expect(await store.current(nextProjectId('none'))).toBeUndefined();
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
        await publishVersions(projectId, 3);
        await overwriteBody(projectId, 3, body);

        // Act
        const current = await store.current(projectId);

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
      await publishVersions(projectId, 3);
      await s3.send(
        new DeleteObjectCommand({
          Bucket: emulators.bucketName,
          Key: artefactKeys.patternSet(projectId, 3),
        }),
      );
      await overwriteBody(projectId, 2, 'null');

      // Act
      const current = await store.current(projectId);

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
      await publishVersions(projectId, 2);
      await overwriteBody(projectId, 1, '');
      await overwriteBody(projectId, 2, '[]');

      // Act
      const reading = store.current(projectId);

      // Assess
      await expect(reading).rejects.toThrow(PatternSetCorruptError);
      await expect(reading).rejects.toThrow(/v2: body does not match .*\n {2}v1: body is not JSON/);
    });
  });

  describe('Method: listVersions', () => {
    it('lists only the versions above newerThan, newest first, when asked', async () => {
      // Prepare
      const projectId = nextProjectId('newer-than');
      await publishVersions(projectId, 4);

      // Act
      const all = await store.listVersions(projectId);
      const newer = await store.listVersions(projectId, { newerThan: 2 });
      const none = await store.listVersions(projectId, { newerThan: 4 });
      const fromStart = await store.listVersions(projectId, { newerThan: 0 });

      // Assess
      expect(all.map((entry) => entry.version)).toEqual([4, 3, 2, 1]);
      expect(newer).toEqual(all.slice(0, 2));
      expect(none).toEqual([]);
      expect(fromStart).toEqual(all);
    });

    it('refuses a newerThan that is not a version number', async () => {
      await expect(
        store.listVersions(nextProjectId('bad-newer'), { newerThan: -1 }),
      ).rejects.toThrow(/newerThan/);
    });
  });

  describe('Function: publishNext (analyze-gap)', () => {
    it('finds the version a retried step already published instead of publishing again', async () => {
      // Prepare: v1 and v2 by others; this iteration scored with v2 and published v3, then
      // another run published v4 before the step was retried.
      const projectId = nextProjectId('publish-next');
      await publishVersions(projectId, 2);
      const scoredWith = (await store.current(projectId))?.set;
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
      const first = await publishNext({ patternSets: store }, run, change);
      await store.publish(projectId, draft('other run'), { expectedCurrent: 3, reason: 'other' });

      // Act
      const again = await publishNext({ patternSets: store }, run, change);

      // Assess
      expect(first).toBe(3);
      expect(again).toBe(3);
      expect((await store.listVersions(projectId)).map((entry) => entry.version)).toEqual([
        4, 3, 2, 1,
      ]);
    });
  });

  describe('Method: get', () => {
    it('returns a stored version, undefined for one never published', async () => {
      // Prepare
      const projectId = nextProjectId('get');
      await publishVersions(projectId, 2);

      // Act & Assess
      expect((await store.get(projectId, 1))?.patterns[0]?.keywords).toEqual(['k1']);
      expect(await store.get(projectId, 3)).toBeUndefined();
    });

    it('throws PatternSetCorruptError for an unusable version and InvalidInputError for a bad number', async () => {
      // Prepare
      const projectId = nextProjectId('get-corrupt');
      await publishVersions(projectId, 1);
      await overwriteBody(projectId, 1, '{}');

      // Act & Assess
      await expect(store.get(projectId, 1)).rejects.toThrow(PatternSetCorruptError);
      await expect(store.get(projectId, 0)).rejects.toThrow(InvalidInputError);
      await expect(store.get(projectId, 1_000_000)).rejects.toThrow(InvalidInputError);
    });
  });

  describe('Method: rollback', () => {
    it('points back at an earlier version and keeps every version', async () => {
      // Prepare
      const projectId = nextProjectId('rollback');
      await publishVersions(projectId, 3);

      // Act
      const pointer = await store.rollback(projectId, 1, {
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
      const current = await store.current(projectId);
      expect(current).toMatchObject({ version: 1, pointer });
      expect(current).not.toHaveProperty('fallbackFrom');
      expect((await store.listVersions(projectId)).map((entry) => entry.version)).toEqual([
        3, 2, 1,
      ]);
    });

    it('gives the next publish a fresh number whose parent is the rolled-back-to version', async () => {
      // Prepare
      const projectId = nextProjectId('after-rollback');
      await publishVersions(projectId, 3);
      await store.rollback(projectId, 1, { expectedCurrent: 3, reason: 'regression' });

      // Act
      const version = await store.publish(projectId, draft('again'), {
        expectedCurrent: 1,
        reason: 'retry learning',
      });

      // Assess
      expect(version).toBe(4);
      expect((await store.current(projectId))?.set).toMatchObject({ version: 4, parentVersion: 1 });
    });

    it('repairs a corrupt current version by pointing at the fallback', async () => {
      // Prepare
      const projectId = nextProjectId('repair');
      await publishVersions(projectId, 3);
      await overwriteBody(projectId, 3, 'garbage');
      const fallback = await store.current(projectId);

      // Act
      await store.rollback(projectId, fallback?.version ?? 0, {
        expectedCurrent: fallback?.fallbackFrom ?? 0,
        reason: `v3 unusable: ${fallback?.fallbackReason ?? ''}`,
      });

      // Assess
      const current = await store.current(projectId);
      expect(current).toMatchObject({ version: 2, pointer: { version: 2 } });
      expect(current).not.toHaveProperty('fallbackFrom');
    });

    it('refuses an unusable target, a stale caller, a missing version and the current one', async () => {
      // Prepare
      const projectId = nextProjectId('rollback-refused');
      await publishVersions(projectId, 3);
      await overwriteBody(projectId, 1, '{"schemaVersion": "2.0"}');
      const pointerBefore = await readRaw(projectId, patternSetKeys.pointerSk);

      const rollback = (toVersion: number, expectedCurrent: number, project = projectId) =>
        store.rollback(project, toVersion, { expectedCurrent, reason: 'r' });

      // Act & Assess
      await expect(rollback(1, 3)).rejects.toThrow(PatternSetCorruptError);
      await expect(rollback(1, 3)).rejects.toThrow(
        /v1: body does not match PatternSetSchema: version: /,
      );
      await expect(rollback(2, 2)).rejects.toThrow(VersionConflictError);
      await expect(rollback(7, 3)).rejects.toThrow(NotFoundError);
      await expect(rollback(3, 3)).rejects.toThrow(/toVersion: version 3 is already current/);
      await expect(rollback(1, 1, nextProjectId('empty'))).rejects.toThrow(NotFoundError);
      expect(await readRaw(projectId, patternSetKeys.pointerSk)).toEqual(pointerBefore);
    });

    it('refuses when the pointer moved and came back since the caller read it', async () => {
      // Prepare: between this rollback's read and its write, a rollback and a roll-forward
      const projectId = nextProjectId('aba');
      await publishVersions(projectId, 2);
      let moved = false;
      const { hookedStore, close } = storeWithPutHook(async ({ sk }) => {
        if (sk !== patternSetKeys.pointerSk || moved) return;
        moved = true;
        await store.rollback(projectId, 1, { expectedCurrent: 2, reason: 'away' });
        await store.rollback(projectId, 2, { expectedCurrent: 1, reason: 'back' });
      });

      // Act
      const rollback = hookedStore.rollback(projectId, 1, { expectedCurrent: 2, reason: 'late' });

      // Assess
      await expect(rollback).rejects.toThrow(
        'expected version 2 (pointer version 2), but now version 2 (pointer version 4); the pointer was not moved',
      );
      close();
      expect((await store.current(projectId))?.pointer).toMatchObject({
        version: 2,
        pointerVersion: 4,
        reason: 'back',
      });
    });
  });
});
