/**
 * DynamoRunStore's run items against the DynamoDB emulator: creating a run with its tasks,
 * reading, listing and saving it. Iterations and tasks: dynamodb-iteration-items.test.ts,
 * dynamodb-task-items.test.ts; the conditional writes themselves:
 * dynamodb-conditional-writes.test.ts.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDynamoDocumentClient } from '../../lambdas/adapters/aws-clients.js';
import { runStoreKeys } from '../../lambdas/adapters/dynamodb/run-items.js';
import { DynamoRunStore } from '../../lambdas/adapters/dynamodb/run-store.js';
import {
  InvalidInputError,
  NotFoundError,
  TransientError,
  VersionConflictError,
} from '../../lambdas/core/errors.js';
import type { Emulators } from '../../local/emulators.js';
import { emulatorDynamoClient, leaveUnprocessed, failReads } from '../support/dynamo-faults.js';
import { unreachableConnection, useEmulatorStores } from '../support/emulator-stores.js';
import { makeRun, makeTask, makeTasks } from '../support/records.js';
import { nextRunId, storeLosingFirstReply } from '../support/run-stores.js';

let emulators: Emulators;
let client: DynamoDBDocumentClient;
let store: DynamoRunStore;

useEmulatorStores((stores) => ({ emulators, dynamo: client, runs: store } = stores));

async function readRaw(pk: string, sk: string) {
  const result = await client.send(
    new GetCommand({ TableName: emulators.tableName, Key: { pk, sk }, ConsistentRead: true }),
  );
  return result.Item;
}

describe('Class: DynamoRunStore', () => {
  describe('Method: createRun', () => {
    it('stores the run and its tasks', async () => {
      // Prepare
      const runId = nextRunId('create');
      const tasks = makeTasks(runId, 3);
      const run = makeRun({ runId, storiesTotal: 3 });

      // Act
      await store.createRun(run, tasks);

      // Assess
      expect(await store.getRun(runId)).toEqual(run);
      expect(await store.listTasks(runId)).toEqual(tasks);
    });

    it('refuses a run that exists and leaves its tasks as they were', async () => {
      // Prepare
      const runId = nextRunId('twice');
      const run = makeRun({ runId, storiesTotal: 1 });
      await store.createRun(run, [makeTask({ runId, title: 'original' })]);

      // Act
      const second = store.createRun({ ...run, project: 'other' }, [
        makeTask({ runId, title: 'replacement' }),
      ]);

      // Assess
      await expect(second).rejects.toThrow(VersionConflictError);
      await expect(second).rejects.toThrow(`run ${runId} already exists`);
      expect(await store.getRun(runId)).toEqual(run);
      expect((await store.listTasks(runId)).map((task) => task.title)).toEqual(['original']);
    });

    it('succeeds when the SDK retries the run put whose reply was lost', async () => {
      // Prepare
      const runId = nextRunId('lost-create');
      const tasks = makeTasks(runId, 2);
      const run = makeRun({ runId, storiesTotal: 2 });
      const { lossyStore, putAttempts, close } = storeLosingFirstReply(emulators, 'PutItemCommand');

      // Act
      await lossyStore.createRun(run, tasks);
      close();

      // Assess: the retry met its own item and did not report "already exists"
      expect(putAttempts()).toBe(2);
      expect(await store.getRun(runId)).toEqual(run);
      expect(await store.listTasks(runId)).toEqual(tasks);
    });

    it('refuses an identical create made by a second call', async () => {
      // Prepare: only a retry of the same write counts as ours, not the same record again
      const runId = nextRunId('create-twice');
      const run = makeRun({ runId, storiesTotal: 1 });
      const tasks = [makeTask({ runId })];
      await store.createRun(run, tasks);
      const before = await readRaw(runStoreKeys.runPk(runId), runStoreKeys.runSk);

      // Act
      const second = store.createRun(run, tasks);

      // Assess
      await expect(second).rejects.toThrow(VersionConflictError);
      expect(await readRaw(runStoreKeys.runPk(runId), runStoreKeys.runSk)).toEqual(before);
      expect(await store.listTasks(runId)).toEqual(tasks);
    });

    it('writes more than 25 tasks in several batches', async () => {
      // Prepare
      const runId = nextRunId('many');
      const tasks = makeTasks(runId, 61);

      // Act
      await store.createRun(makeRun({ runId, storiesTotal: 61 }), tasks);

      // Assess
      const stored = await store.listTasks(runId);
      expect(stored).toHaveLength(61);
      expect(stored.map((task) => task.taskId)).toEqual(tasks.map((task) => task.taskId));
    });

    it('retries the items DynamoDB hands back as unprocessed', async () => {
      // Prepare: the first two BatchWriteItem calls send only 5 of the requests and report
      // the rest as UnprocessedItems, as DynamoDB does when throttled.
      const throttled = emulatorDynamoClient(emulators);
      const throttledCalls = leaveUnprocessed(throttled, 2, 5);
      const throttledStore = new DynamoRunStore({
        client: throttled,
        tableName: emulators.tableName,
      });
      const runId = nextRunId('throttled');
      const tasks = makeTasks(runId, 30);

      // Act
      await throttledStore.createRun(makeRun({ runId, storiesTotal: 30 }), tasks);
      throttled.destroy();

      // Assess
      expect(throttledCalls()).toBe(2);
      expect(await store.listTasks(runId)).toEqual(tasks);
    });

    it('stores empty strings and leaves out optional fields that are undefined', async () => {
      // Prepare
      const runId = nextRunId('sparse');
      const run = makeRun({
        runId,
        project: '',
        stopReason: undefined,
        lastFailure: { iteration: 1, outcome: 'gates_failed', summary: '', taskId: undefined },
      });

      // Act
      await store.createRun(run, []);

      // Assess
      const raw = await readRaw(runStoreKeys.runPk(runId), runStoreKeys.runSk);
      expect(raw).not.toHaveProperty('stopReason');
      expect(raw?.lastFailure).toEqual({
        iteration: 1,
        outcome: 'gates_failed',
        summary: '',
        detail: '',
      });
      expect(await store.getRun(runId)).toEqual(JSON.parse(JSON.stringify(run)));
    });

    it('refuses tasks that do not match storiesTotal or the run, and writes nothing', async () => {
      // Prepare
      const runId = nextRunId('mismatch');
      const tasks = [makeTask({ runId }), makeTask({ runId: 'someone-else', taskId: 'US-002' })];

      // Act
      const create = store.createRun(makeRun({ runId, storiesTotal: 3 }), tasks);

      // Assess
      await expect(create).rejects.toThrow(InvalidInputError);
      await expect(create).rejects.toThrow(/\[1\]\.runId.*storiesTotal 3/s);
      expect(await store.getRun(runId)).toBeUndefined();
    });
  });

  describe('Method: getRun', () => {
    it('returns undefined for a run that does not exist', async () => {
      // Act
      const run = await store.getRun('no-such-run');

      // Assess
      expect(run).toBeUndefined();
    });

    it('names the key and the zod path of a stored item that does not parse', async () => {
      // Prepare
      const runId = nextRunId('corrupt');
      const valid = makeRun({ runId });
      await client.send(
        new PutCommand({
          TableName: emulators.tableName,
          Item: {
            ...valid,
            config: { ...valid.config, limits: { ...valid.config.limits, maxIterations: -1 } },
            pk: runStoreKeys.runPk(runId),
            sk: runStoreKeys.runSk,
          },
        }),
      );

      // Act
      const read = store.getRun(runId);

      // Assess
      await expect(read).rejects.toMatchObject({ code: 'CORRUPT_RECORD' });
      await expect(read).rejects.toThrow(
        new RegExp(`pk=RUN#${runId} sk=META.*config\\.limits\\.maxIterations`, 's'),
      );
    });

    it('works with a plain DynamoDBClient as well as a document client', async () => {
      // Prepare
      const plain = emulatorDynamoClient(emulators);
      const plainStore = new DynamoRunStore({ client: plain, tableName: emulators.tableName });
      const runId = nextRunId('plain');
      const run = makeRun({ runId, stopReason: undefined });

      // Act
      await plainStore.createRun(run, []);
      const read = await plainStore.getRun(runId);
      plain.destroy();

      // Assess
      expect(read).toEqual(run);
    });

    it('turns an unreachable endpoint into a TransientError', async () => {
      // Prepare
      const unreachable = createDynamoDocumentClient(unreachableConnection(emulators));
      const broken = new DynamoRunStore({ client: unreachable, tableName: emulators.tableName });

      // Act
      const read = broken.getRun('anything');

      // Assess
      await expect(read).rejects.toThrow(TransientError);
      unreachable.destroy();
    });
  });

  describe('Method: listRuns', () => {
    // Created far in the future so that they are the newest runs in the shared table.
    const runIds = ['list-a', 'list-b', 'list-c'];

    beforeAll(async () => {
      await store.createRun(makeRun({ runId: 'list-a', createdAt: '2099-01-01T09:00:00Z' }), []);
      // 10:00 UTC, written with an offset: must sort by instant, between a and c.
      await store.createRun(
        makeRun({ runId: 'list-b', createdAt: '2099-01-01T12:00:00+02:00' }),
        [],
      );
      await store.createRun(makeRun({ runId: 'list-c', createdAt: '2099-01-01T11:00:00Z' }), []);
    });

    it('returns the newest runs first, up to the limit', async () => {
      // Act
      const { runs, nextCursor } = await store.listRuns({ limit: 2 });

      // Assess
      expect(runs.map((run) => run.runId)).toEqual(['list-c', 'list-b']);
      expect(nextCursor).toEqual(expect.any(String));
    });

    it('continues from a cursor where the previous page ended, skipping and repeating nothing', async () => {
      // Arrange
      const first = await store.listRuns({ limit: 2 });

      // Act
      const second = await store.listRuns({ limit: 2, cursor: first.nextCursor });

      // Assess
      expect(second.runs[0]?.runId).toBe('list-a');
      const all = (await store.listRuns()).runs.map((run) => run.runId);
      expect([...first.runs, ...second.runs].map((run) => run.runId)).toEqual(all.slice(0, 4));
    });

    it('lists only the runs in a status, still newest first and paged', async () => {
      // Arrange
      const paused = await store.getRun('list-b');
      await store.saveRun({ ...paused!, status: 'paused' }, paused!.version);

      // Act
      const { runs, nextCursor } = await store.listRuns({ status: 'paused', limit: 1 });
      const rest = await store.listRuns({ status: 'paused', cursor: nextCursor });

      // Assess
      expect(runs.map((run) => run.runId)).toEqual(['list-b']);
      expect(rest.runs.every((run) => run.status === 'paused')).toBe(true);
      expect(rest.runs.map((run) => run.runId)).not.toContain('list-b');
    });

    it('refuses a cursor it did not hand out, naming the cursor', async () => {
      // Act
      const listing = store.listRuns({
        cursor: Buffer.from('{"pk":"TASK#x"}').toString('base64url'),
      });

      // Assess
      await expect(listing).rejects.toThrow(InvalidInputError);
      await expect(listing).rejects.toThrow(/cursor: not a cursor this list handed out/);
    });

    it('returns every run without a limit', async () => {
      // Act
      const { runs, nextCursor } = await store.listRuns();

      // Assess
      expect(nextCursor).toBeUndefined();
      expect(runs.slice(0, 3).map((run) => run.runId)).toEqual(['list-c', 'list-b', 'list-a']);
      expect(runs.length).toBeGreaterThan(runIds.length);
      const created = runs.map((run) => new Date(run.createdAt).getTime());
      expect(created).toEqual([...created].sort((a, b) => b - a));
    });
  });

  describe('Method: saveRun', () => {
    it('saves with the stored version and bumps it', async () => {
      // Prepare
      const runId = nextRunId('save');
      await store.createRun(makeRun({ runId }), []);

      // Act
      const saved = await store.saveRun(makeRun({ runId, status: 'paused' }), 1);

      // Assess
      expect(saved.version).toBe(2);
      expect(await store.getRun(runId)).toEqual(saved);
      expect(await readRaw(runStoreKeys.runPk(runId), 'META')).toMatchObject({
        status: 'paused',
        version: 2,
      });
    });

    it('refuses a stale version and leaves the stored item unchanged', async () => {
      // Prepare
      const runId = nextRunId('stale');
      await store.createRun(makeRun({ runId }), []);
      const current = await store.saveRun(makeRun({ runId, status: 'paused' }), 1);
      const before = await readRaw(runStoreKeys.runPk(runId), 'META');

      // Act
      const stale = store.saveRun(makeRun({ runId, status: 'cancelled' }), 1);

      // Assess
      await expect(stale).rejects.toThrow(VersionConflictError);
      await expect(stale).rejects.toThrow(
        `run ${runId} was not saved: expected version 1, but the stored version is 2`,
      );
      expect(await readRaw(runStoreKeys.runPk(runId), 'META')).toEqual(before);
      expect(await store.getRun(runId)).toEqual(current);
    });

    it('succeeds when the SDK retries a save whose reply was lost', async () => {
      // Prepare
      const runId = nextRunId('lost-save');
      await store.createRun(makeRun({ runId }), []);
      const { lossyStore, putAttempts, close } = storeLosingFirstReply(emulators, 'PutItemCommand');

      // Act
      const saved = await lossyStore.saveRun(makeRun({ runId, status: 'paused' }), 1);
      close();

      // Assess: the retry met version 2 holding its own write, not a conflict
      expect(putAttempts()).toBe(2);
      expect(saved.version).toBe(2);
      expect(await store.getRun(runId)).toEqual(saved);
      expect(await store.getRun(runId)).not.toHaveProperty('writeId');
    });

    it('still refuses the stale version for any other write, identical or not', async () => {
      // Prepare
      const runId = nextRunId('replay');
      await store.createRun(makeRun({ runId }), []);
      const saved = await store.saveRun(makeRun({ runId, status: 'paused' }), 1);
      const before = await readRaw(runStoreKeys.runPk(runId), runStoreKeys.runSk);

      // Act: a different record, and the same record from a second caller (two workers
      // that read version 1 and write the same change must not both be told they won)
      const different = store.saveRun(makeRun({ runId, status: 'cancelled' }), 1);
      const identical = store.saveRun(makeRun({ runId, status: 'paused' }), 1);

      // Assess
      await expect(different).rejects.toThrow(VersionConflictError);
      await expect(identical).rejects.toThrow(
        `run ${runId} was not saved: expected version 1, but the stored version is 2`,
      );
      expect(await readRaw(runStoreKeys.runPk(runId), runStoreKeys.runSk)).toEqual(before);
      expect(await store.getRun(runId)).toEqual(saved);
    });

    it('says Transient when the item cannot be read back after a failed condition', async () => {
      // Prepare: every GetItem of this client is throttled
      const runId = nextRunId('unreadable');
      await store.createRun(makeRun({ runId }), []);
      await store.saveRun(makeRun({ runId, status: 'paused' }), 1);
      const throttled = emulatorDynamoClient(emulators, 1);
      failReads(throttled);
      const throttledStore = new DynamoRunStore({
        client: throttled,
        tableName: emulators.tableName,
      });

      // Act
      const save = throttledStore.saveRun(makeRun({ runId, status: 'cancelled' }), 1);

      // Assess: whether the write was ours is unknown, so a retry must decide
      await expect(save).rejects.toThrow(TransientError);
      await expect(save).rejects.toThrow(/reading the item back/);
      throttled.destroy();
      expect((await store.getRun(runId))?.status).toBe('paused');
    });

    it('says NotFound for a run that was never created', async () => {
      // Act
      const save = store.saveRun(makeRun({ runId: 'never-created' }), 1);

      // Assess
      await expect(save).rejects.toThrow(NotFoundError);
      expect(await store.getRun('never-created')).toBeUndefined();
    });
  });
});
