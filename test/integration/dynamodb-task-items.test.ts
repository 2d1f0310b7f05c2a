/**
 * DynamoRunStore's task items against the DynamoDB emulator (listing by priority, saving),
 * and the run's key builders.
 */
import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { runStoreKeys } from '../../lambdas/adapters/dynamodb/run-items.js';
import type { DynamoRunStore } from '../../lambdas/adapters/dynamodb/run-store.js';
import {
  InvalidInputError,
  NotFoundError,
  VersionConflictError,
} from '../../lambdas/core/errors.js';
import type { Emulators } from '../../local/emulators.js';
import { useEmulatorStores } from '../support/emulator-stores.js';
import { makeRun, makeTask } from '../support/records.js';
import { nextRunId, storeLosingFirstReply } from '../support/run-stores.js';

let emulators: Emulators;
let store: DynamoRunStore;
let client: DynamoDBDocumentClient;

useEmulatorStores((stores) => ({ emulators, runs: store, dynamo: client } = stores));

describe('Class: DynamoRunStore', () => {
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

  describe('a task item of version 1', () => {
    it('reads as version 2 (block lifted), and is saved as version 2', async () => {
      // Prepare: a blocked task as the first version of the code wrote it, flat.
      const runId = nextRunId('task-v1');
      const current = makeTask({ runId, taskId: 'US-001' });
      await store.createRun(makeRun({ runId, storiesTotal: 1 }), [current]);
      const { schemaVersion: _version, ...fields } = current;
      await client.send(
        new PutCommand({
          TableName: emulators.tableName,
          Item: {
            ...fields,
            status: 'blocked',
            attempts: 3,
            timesBlocked: 1,
            blockedReason: '3 attempts failed; last: gates failed',
            blockedAt: '2025-01-15T11:00:00.000Z',
            pk: runStoreKeys.runPk(runId),
            sk: runStoreKeys.taskSk(current.priority, current.taskId),
          },
        }),
      );

      // Act
      const [read] = await store.listTasks(runId);
      if (read?.status !== 'blocked') throw new Error('the stored task should read as blocked');
      const saved = await store.saveTask(
        { ...read, status: 'in_progress', stintStartAttempts: 3 },
        read.version,
      );
      const [again] = await store.listTasks(runId);

      // Assess
      expect(read).toMatchObject({
        schemaVersion: 2,
        block: { reason: '3 attempts failed; last: gates failed', at: '2025-01-15T11:00:00.000Z' },
      });
      expect(read).not.toHaveProperty('blockedReason');
      expect(saved).toStrictEqual(again);
      expect(again).toMatchObject({ schemaVersion: 2, status: 'in_progress', version: 2 });
      expect(again?.block?.reason).toBe('3 attempts failed; last: gates failed');
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
      const { lossyStore, putAttempts, close } = storeLosingFirstReply(emulators, 'PutItemCommand');

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
