/**
 * DynamoIncidentStore against the DynamoDB emulator: replay keys (kept, expired, a lost
 * reply), error groups (created once, saved on their version, listed by project and
 * status), batches (numbered per project, the latest, the open ones) and hourly run counts.
 */
import { describe, expect, it } from 'vitest';
import { DynamoIncidentStore } from '../../lambdas/adapters/dynamodb/incident-store.js';
import { TTL_ATTRIBUTE } from '../../lambdas/adapters/dynamodb/incident-items.js';
import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { VersionConflictError } from '../../lambdas/core/errors.js';
import type { Emulators } from '../../local/emulators.js';
import { emulatorDynamoClient, loseFirstReply } from '../support/dynamo-faults.js';
import { useEmulatorStores } from '../support/emulator-stores.js';
import { makeBatch, makeGroup } from '../support/incident-records.js';

let emulators: Emulators;
let client: DynamoDBDocumentClient;
let store: DynamoIncidentStore;

useEmulatorStores((stores) => {
  ({ emulators, dynamo: client } = stores);
  store = new DynamoIncidentStore({ client, tableName: emulators.tableName });
});

let counter = 0;
const unique = (label: string) => `${label}-${(counter += 1)}`;

describe('Class: DynamoIncidentStore', () => {
  describe('Method: rememberDelivery', () => {
    it('keeps a key once: the same key again is a replay until it expires', async () => {
      // Prepare
      const key = unique('sentry:abc');
      const window = { receivedAt: '2026-11-27T07:00:00Z', expiresAt: '2026-11-27T07:10:00Z' };

      // Act
      const first = await store.rememberDelivery(key, window);
      const replay = await store.rememberDelivery(key, {
        receivedAt: '2026-11-27T07:09:59Z',
        expiresAt: '2026-11-27T07:19:59Z',
      });
      const afterExpiry = await store.rememberDelivery(key, {
        receivedAt: '2026-11-27T07:10:01Z',
        expiresAt: '2026-11-27T07:20:01Z',
      });

      // Assess
      expect([first, replay, afterExpiry]).toEqual([true, false, true]);
      const { Item } = await client.send(
        new GetCommand({
          TableName: emulators.tableName,
          Key: { pk: `DELIVERY#${key}`, sk: 'DELIVERY' },
        }),
      );
      expect(Item).toMatchObject({
        expiresAt: '2026-11-27T07:20:01.000Z',
        [TTL_ATTRIBUTE]: Date.parse('2026-11-27T07:20:01Z') / 1000,
      });
    });

    it('forgetDelivery lets the same delivery be taken again', async () => {
      const key = unique('newrelic:def');
      const window = { receivedAt: '2026-11-27T07:00:00Z', expiresAt: '2026-11-27T07:10:00Z' };
      await store.rememberDelivery(key, window);

      await store.forgetDelivery(key);

      expect(await store.rememberDelivery(key, window)).toBe(true);
    });

    it('counts a put whose reply was lost (the SDK retried it) as kept by this call', async () => {
      // Prepare
      const lossy = emulatorDynamoClient(emulators, 4);
      const sent = loseFirstReply(lossy, 'PutItemCommand');
      const lossyStore = new DynamoIncidentStore({ client: lossy, tableName: emulators.tableName });
      const key = unique('sentry:lost');
      const window = { receivedAt: '2026-11-27T07:00:00Z', expiresAt: '2026-11-27T07:10:00Z' };

      // Act
      const kept = await lossyStore.rememberDelivery(key, window);

      // Assess
      expect(kept).toBe(true);
      expect(sent()).toBe(2);
      expect(await store.rememberDelivery(key, window)).toBe(false);
      lossy.destroy();
    });
  });

  describe('Method: saveGroup', () => {
    it('creates a group once and saves it on its version', async () => {
      // Prepare
      const group = makeGroup({ fingerprint: unique('issue:1') });

      // Act
      const created = await store.saveGroup(group, undefined);
      const again = store.saveGroup(group, undefined);
      const saved = await store.saveGroup({ ...created, deliveries: 2 }, created.version);
      const stale = store.saveGroup({ ...created, deliveries: 3 }, created.version);

      // Assess
      await expect(again).rejects.toBeInstanceOf(VersionConflictError);
      await expect(stale).rejects.toBeInstanceOf(VersionConflictError);
      expect(saved.version).toBe(2);
      expect(await store.getGroup(group)).toEqual(saved);
    });
  });

  describe('Method: listGroups', () => {
    it("lists a project's groups, by status, and the unrouted ones apart", async () => {
      // Prepare
      const projectId = unique('proj');
      const pending = makeGroup({ projectId, fingerprint: unique('issue:p') });
      const held = makeGroup({ projectId, fingerprint: unique('issue:h'), status: 'held' });
      const unrouted = makeGroup({ fingerprint: unique('issue:u'), status: 'unrouted' });
      delete (unrouted as { projectId?: string }).projectId;
      for (const group of [pending, held, unrouted]) await store.saveGroup(group, undefined);

      // Act
      const all = await store.listGroups({ projectId });
      const onlyHeld = await store.listGroups({ projectId, status: 'held' });
      const withoutRoute = await store.listGroups({ unrouted: true });

      // Assess
      expect(all.map((group) => group.fingerprint).sort()).toEqual(
        [pending.fingerprint, held.fingerprint].sort(),
      );
      expect(onlyHeld.map((group) => group.fingerprint)).toEqual([held.fingerprint]);
      expect(withoutRoute.map((group) => group.fingerprint)).toContain(unrouted.fingerprint);
    });
  });

  describe('Methods: saveBatch, latestBatch, listOpenBatches', () => {
    it('creates a batch id once: two openers of the same next batch, one wins', async () => {
      const projectId = unique('race');
      const batch = makeBatch({ projectId, batchId: 'b00000001' });

      const results = await Promise.allSettled([
        store.saveBatch(batch, undefined),
        store.saveBatch({ ...batch, runId: 'r-other' }, undefined),
      ]);

      expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    });

    it('the latest batch is the highest numbered; a closed batch leaves the open ones', async () => {
      // Prepare
      const projectId = unique('latest');
      const first = await store.saveBatch(
        makeBatch({ projectId, batchId: 'b00000001' }),
        undefined,
      );
      await store.saveBatch({ ...first, status: 'closed' }, first.version);
      const second = await store.saveBatch(
        makeBatch({ projectId, batchId: 'b00000002', closesAt: '2026-11-27T07:06:00Z' }),
        undefined,
      );

      // Act
      const latest = await store.latestBatch(projectId);
      const open = (await store.listOpenBatches()).filter((batch) => batch.projectId === projectId);

      // Assess
      expect(latest).toEqual(second);
      expect(open.map((batch) => batch.batchId)).toEqual(['b00000002']);
      expect(await store.latestBatch(unique('none'))).toBeUndefined();
    });
  });

  describe('Method: countRun', () => {
    it('counts up to the limit per project and hour, then refuses', async () => {
      const projectId = unique('limit');

      const answers = [];
      for (let run = 0; run < 4; run += 1)
        answers.push(await store.countRun(projectId, '2026-11-27T07', 3));
      const nextHour = await store.countRun(projectId, '2026-11-27T08', 3);

      expect(answers).toEqual([true, true, true, false]);
      expect(nextHour).toBe(true);
    });

    it('counts a counted run whose reply was lost once, not twice', async () => {
      const lossy = emulatorDynamoClient(emulators, 4);
      loseFirstReply(lossy, 'UpdateItemCommand');
      const lossyStore = new DynamoIncidentStore({ client: lossy, tableName: emulators.tableName });
      const projectId = unique('lost-count');

      expect(await lossyStore.countRun(projectId, '2026-11-27T07', 2)).toBe(true);
      expect(await store.countRun(projectId, '2026-11-27T07', 2)).toBe(true);
      expect(await store.countRun(projectId, '2026-11-27T07', 2)).toBe(false);
      lossy.destroy();
    });
  });
});
