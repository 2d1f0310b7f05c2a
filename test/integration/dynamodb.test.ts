import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDynamoDocumentClient } from '../../lambdas/adapters/aws-clients.js';
import { DynamoRunStore, runStoreKeys } from '../../lambdas/adapters/dynamodb.js';
import {
  InvalidInputError,
  IterationClaimedError,
  NotFoundError,
  TransientError,
  VersionConflictError,
} from '../../lambdas/core/errors.js';
import type { Emulators } from '../../local/emulators.js';
import { useEmulatorStores } from '../support/emulator-stores.js';
import { makeIteration, makeRun, makeTask, makeTasks } from '../support/records.js';

let emulators: Emulators;
let client: DynamoDBDocumentClient;
let store: DynamoRunStore;

useEmulatorStores((stores) => ({ emulators, dynamo: client, runs: store } = stores));

/** Every test uses its own run id: the table is shared by the whole file. */
let runCounter = 0;
function nextRunId(label: string): string {
  runCounter += 1;
  return `${label}-${runCounter}`;
}

async function readRaw(pk: string, sk: string) {
  const result = await client.send(
    new GetCommand({ TableName: emulators.tableName, Key: { pk, sk }, ConsistentRead: true }),
  );
  return result.Item;
}

/** A store whose Query pages hold at most `pageSize` items, so that paging is exercised. */
function storeWithSmallPages(pageSize: number) {
  const paged = new DynamoDBClient({
    endpoint: emulators.dynamoEndpoint,
    region: emulators.region,
    credentials: emulators.credentials,
  });
  paged.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName !== 'QueryCommand') return next(args);
      const input = args.input as { Limit?: number };
      return next({
        ...args,
        input: { ...input, Limit: Math.min(input.Limit ?? pageSize, pageSize) },
      });
    },
    { step: 'initialize', name: 'smallPages' },
  );
  return {
    pagedStore: new DynamoRunStore({ client: paged, tableName: emulators.tableName }),
    close: () => paged.destroy(),
  };
}

/**
 * A store whose client loses the reply to its first PutItem: the write reaches the table,
 * then the attempt fails as a reset connection does, and the SDK's retry sends the same
 * request again, which then fails on its own condition. This is what a timeout after a
 * landed write looks like.
 */
function storeLosingFirstPutReply(commandName = 'PutItemCommand') {
  const lossy = new DynamoDBClient({
    endpoint: emulators.dynamoEndpoint,
    region: emulators.region,
    credentials: emulators.credentials,
    maxAttempts: 4,
  });
  let putAttempts = 0;
  lossy.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName !== commandName) return next(args);
      putAttempts += 1;
      const result = await next(args);
      if (putAttempts === 1)
        throw Object.assign(new Error('socket hang up'), { name: 'Error', code: 'ECONNRESET' });
      return result;
    },
    { step: 'deserialize', name: 'loseFirstPutReply' },
  );
  return {
    lossyStore: new DynamoRunStore({ client: lossy, tableName: emulators.tableName }),
    putAttempts: () => putAttempts,
    close: () => lossy.destroy(),
  };
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
      const { lossyStore, putAttempts, close } = storeLosingFirstPutReply();

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
      // Prepare: a plain client whose first two BatchWriteItem calls send only 5 of the
      // requests and report the rest as UnprocessedItems, as DynamoDB does when throttled.
      const throttled = new DynamoDBClient({
        endpoint: emulators.dynamoEndpoint,
        region: emulators.region,
        credentials: emulators.credentials,
      });
      let throttledCalls = 0;
      throttled.middlewareStack.add(
        (next, context) => async (args) => {
          if (context.commandName !== 'BatchWriteItemCommand' || throttledCalls >= 2)
            return next(args);
          throttledCalls += 1;
          const input = args.input as { RequestItems: Record<string, unknown[]> };
          const [table, requests] = Object.entries(input.RequestItems)[0] ?? ['', []];
          const result = await next({
            ...args,
            input: { ...input, RequestItems: { [table]: requests.slice(0, 5) } },
          });
          (result.output as { UnprocessedItems?: unknown }).UnprocessedItems = {
            [table]: requests.slice(5),
          };
          return result;
        },
        { step: 'initialize', name: 'simulateThrottling' },
      );
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
      expect(throttledCalls).toBe(2);
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
      const plain = new DynamoDBClient({
        endpoint: emulators.dynamoEndpoint,
        region: emulators.region,
        credentials: emulators.credentials,
      });
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
      // Prepare: nothing listens on port 1
      const unreachable = createDynamoDocumentClient({
        endpoint: 'http://127.0.0.1:1',
        region: emulators.region,
        credentials: emulators.credentials,
        maxAttempts: 2,
      });
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
      const runs = await store.listRuns({ limit: 2 });

      // Assess
      expect(runs.map((run) => run.runId)).toEqual(['list-c', 'list-b']);
    });

    it('returns every run without a limit', async () => {
      // Act
      const runs = await store.listRuns();

      // Assess
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
      const { lossyStore, putAttempts, close } = storeLosingFirstPutReply();

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
      const throttled = new DynamoDBClient({
        endpoint: emulators.dynamoEndpoint,
        region: emulators.region,
        credentials: emulators.credentials,
        maxAttempts: 1,
      });
      throttled.middlewareStack.add(
        (next, context) => async (args) => {
          if (context.commandName === 'GetItemCommand')
            throw Object.assign(new Error('Rate exceeded'), {
              name: 'ThrottlingException',
              $metadata: { httpStatusCode: 400 },
            });
          return next(args);
        },
        { step: 'initialize', name: 'throttleReads' },
      );
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

  describe('Method: createIteration', () => {
    it('refuses an iteration that was already claimed', async () => {
      // Prepare
      const runId = nextRunId('claim');
      const first = makeIteration({ runId, iteration: 3, taskTitle: 'first claim' });
      await store.createIteration(first);

      // Act
      const second = store.createIteration({ ...first, taskTitle: 'second claim' });

      // Assess
      await expect(second).rejects.toThrow(IterationClaimedError);
      expect(await store.getIteration(runId, 3)).toEqual(first);
    });

    it('refuses an identical claim made by a second call', async () => {
      // Prepare: a duplicate delivery that builds the same record still loses the claim
      const runId = nextRunId('claim-twice');
      const record = makeIteration({ runId, iteration: 1 });
      await store.createIteration(record);

      // Act
      const second = store.createIteration(record);

      // Assess
      await expect(second).rejects.toThrow(IterationClaimedError);
      expect(await store.getIteration(runId, 1)).toEqual(record);
    });

    it('succeeds when the SDK retries a claim whose reply was lost', async () => {
      // Prepare
      const runId = nextRunId('lost-claim');
      const record = makeIteration({ runId, iteration: 4 });
      const { lossyStore, putAttempts, close } = storeLosingFirstPutReply();

      // Act
      await lossyStore.createIteration(record);
      close();

      // Assess
      expect(putAttempts()).toBe(2);
      expect(await store.getIteration(runId, 4)).toEqual(record);
      expect(await store.listIterations(runId)).toEqual([record]);
    });
  });

  describe('Method: claimIteration', () => {
    it('moves a planned iteration to running in one write, keeping the rest', async () => {
      // Prepare
      const runId = nextRunId('claim-one');
      const planned = makeIteration({ runId, iteration: 2 });
      await store.createIteration(planned);

      // Act
      const claimed = await store.claimIteration(runId, 2, '2026-11-23T08:00:00.000Z');

      // Assess
      expect(claimed).toEqual({
        ...planned,
        status: 'running',
        startedAt: '2026-11-23T08:00:00.000Z',
        version: 2,
      });
      expect(await store.getIteration(runId, 2)).toEqual(claimed);
    });

    it('refuses a second claim, and a save made from the record read before the claim', async () => {
      // Prepare
      const runId = nextRunId('claim-race');
      const planned = makeIteration({ runId, iteration: 1 });
      await store.createIteration(planned);
      const claimed = await store.claimIteration(runId, 1, '2026-11-23T08:00:00.000Z');

      // Act
      const second = store.claimIteration(runId, 1, '2026-11-23T08:00:01.000Z');
      const stale = store.saveIteration({ ...planned, taskTitle: 'stale' }, planned.version);

      // Assess
      await expect(second).rejects.toThrow(IterationClaimedError);
      await expect(stale).rejects.toThrow(VersionConflictError);
      expect(await store.getIteration(runId, 1)).toEqual(claimed);
    });

    it('says NotFound for an iteration that was never planned', async () => {
      // Act
      const claim = store.claimIteration(nextRunId('claim-missing'), 1, '2026-11-23T08:00:00Z');

      // Assess
      await expect(claim).rejects.toThrow(NotFoundError);
    });

    it('refuses a start time that is not an ISO date, and writes nothing', async () => {
      // Prepare
      const runId = nextRunId('claim-bad-date');
      const planned = makeIteration({ runId, iteration: 1 });
      await store.createIteration(planned);

      // Act
      const claim = store.claimIteration(runId, 1, 'yesterday');

      // Assess
      await expect(claim).rejects.toThrow(/startedAt/);
      expect(await store.getIteration(runId, 1)).toEqual(planned);
    });

    it('succeeds when the SDK retries a claim whose reply was lost', async () => {
      // Prepare
      const runId = nextRunId('claim-lost');
      await store.createIteration(makeIteration({ runId, iteration: 5 }));
      const { lossyStore, putAttempts, close } = storeLosingFirstPutReply('UpdateItemCommand');

      // Act
      const claimed = await lossyStore.claimIteration(runId, 5, '2026-11-23T08:00:00.000Z');
      close();

      // Assess
      expect(putAttempts()).toBe(2);
      expect(claimed.status).toBe('running');
      expect(claimed.version).toBe(2);
      expect(await store.getIteration(runId, 5)).toEqual(claimed);
    });
  });

  describe('Method: listIterations', () => {
    it('lists iterations in numeric order (2 before 10)', async () => {
      // Prepare
      const runId = nextRunId('iterations');
      for (const iteration of [10, 2, 1, 11])
        await store.createIteration(makeIteration({ runId, iteration }));

      // Act
      const iterations = await store.listIterations(runId);

      // Assess
      expect(iterations.map((record) => record.iteration)).toEqual([1, 2, 10, 11]);
    });

    it('reads every page of a long result', async () => {
      // Prepare
      const runId = nextRunId('pages');
      for (let iteration = 1; iteration <= 7; iteration += 1)
        await store.createIteration(makeIteration({ runId, iteration }));
      await store.createRun(makeRun({ runId, storiesTotal: 5 }), makeTasks(runId, 5));
      const { pagedStore, close } = storeWithSmallPages(2);

      // Act
      const iterations = await pagedStore.listIterations(runId);
      const tasks = await pagedStore.listTasks(runId);
      const runs = await pagedStore.listRuns({ limit: 3 });
      close();

      // Assess
      expect(iterations.map((record) => record.iteration)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(tasks).toHaveLength(5);
      expect(runs).toEqual(await store.listRuns({ limit: 3 }));
      expect(runs).toHaveLength(3);
    });

    it('does not mix in the run item or tasks of the same partition', async () => {
      // Prepare
      const runId = nextRunId('partition');
      await store.createRun(makeRun({ runId, storiesTotal: 1 }), [makeTask({ runId })]);

      // Act
      const iterations = await store.listIterations(runId);

      // Assess
      expect(iterations).toEqual([]);
    });
  });

  describe('Method: saveIteration', () => {
    it('bumps the version and refuses a stale one', async () => {
      // Prepare
      const runId = nextRunId('save-iteration');
      const planned = makeIteration({ runId, iteration: 1 });
      await store.createIteration(planned);

      // Act
      const recorded = await store.saveIteration(
        { ...planned, status: 'recorded', outcome: 'passed', artefacts: { diff: 'k' } },
        1,
      );
      const stale = store.saveIteration({ ...planned, status: 'running' }, 1);

      // Assess
      expect(recorded.version).toBe(2);
      await expect(stale).rejects.toThrow(VersionConflictError);
      expect(await store.getIteration(runId, 1)).toEqual(recorded);
    });

    it('succeeds when the SDK retries a save whose reply was lost', async () => {
      // Prepare
      const runId = nextRunId('lost-iteration');
      const planned = makeIteration({ runId, iteration: 1 });
      await store.createIteration(planned);
      const { lossyStore, putAttempts, close } = storeLosingFirstPutReply();

      // Act
      const running = await lossyStore.saveIteration({ ...planned, status: 'running' }, 1);
      close();

      // Assess
      expect(putAttempts()).toBe(2);
      expect(running.version).toBe(2);
      expect(await store.getIteration(runId, 1)).toEqual(running);
    });
  });

  describe('Method: listTasks', () => {
    it('lists tasks by priority, negative first, ties broken by id', async () => {
      // Prepare
      const runId = nextRunId('priorities');
      const tasks = [
        makeTask({ runId, taskId: 'T-b', priority: 2 }),
        makeTask({ runId, taskId: 'T-big', priority: 1_000_000 }),
        makeTask({ runId, taskId: 'T-neg', priority: -3 }),
        makeTask({ runId, taskId: 'T-a', priority: 2 }),
        makeTask({ runId, taskId: 'T-zero', priority: 0 }),
        makeTask({ runId, taskId: 'T-neg1', priority: -1 }),
        makeTask({ runId, taskId: 'T-one', priority: 1 }),
      ];
      await store.createRun(makeRun({ runId, storiesTotal: tasks.length }), tasks);

      // Act
      const listed = await store.listTasks(runId);

      // Assess
      expect(listed.map((task) => task.taskId)).toEqual([
        'T-neg',
        'T-neg1',
        'T-zero',
        'T-one',
        'T-a',
        'T-b',
        'T-big',
      ]);
    });
  });

  describe('Method: saveTask', () => {
    it('bumps the version, refuses a stale one, and names a changed priority as not found', async () => {
      // Prepare
      const runId = nextRunId('save-task');
      const task = makeTask({ runId, priority: 4 });
      await store.createRun(makeRun({ runId, storiesTotal: 1 }), [task]);

      // Act
      const done = await store.saveTask({ ...task, status: 'complete', attempts: 1 }, 1);
      const stale = store.saveTask({ ...task, status: 'in_progress' }, 1);
      const moved = store.saveTask({ ...done, priority: 5 }, 2);

      // Assess
      expect(done.version).toBe(2);
      await expect(stale).rejects.toThrow(VersionConflictError);
      await expect(moved).rejects.toThrow(NotFoundError);
      expect(await store.listTasks(runId)).toEqual([done]);
    });

    it('succeeds when the SDK retries a save whose reply was lost', async () => {
      // Prepare
      const runId = nextRunId('lost-task');
      const task = makeTask({ runId });
      await store.createRun(makeRun({ runId, storiesTotal: 1 }), [task]);
      const { lossyStore, putAttempts, close } = storeLosingFirstPutReply();

      // Act
      const done = await lossyStore.saveTask({ ...task, status: 'complete', attempts: 1 }, 1);
      close();

      // Assess
      expect(putAttempts()).toBe(2);
      expect(await store.listTasks(runId)).toEqual([done]);
    });
  });
});

describe('Object: runStoreKeys', () => {
  it('orders task sort keys by priority across the whole safe-integer range', () => {
    // Prepare
    const priorities = [
      Number.MAX_SAFE_INTEGER,
      10,
      9,
      1,
      0,
      -1,
      -2,
      -10,
      -Number.MAX_SAFE_INTEGER,
    ];

    // Act
    const sorted = priorities
      .map((priority) => ({ priority, key: runStoreKeys.taskSk(priority, 'x') }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .map((entry) => entry.priority);

    // Assess
    expect(sorted).toEqual([...priorities].sort((a, b) => a - b));
  });

  it('refuses an iteration number that does not fit the padded sort key', () => {
    // Act & Assess
    expect(runStoreKeys.iterationSk(999_999)).toBe('ITER#999999');
    expect(() => runStoreKeys.iterationSk(1_000_000)).toThrow(InvalidInputError);
  });
});
