/**
 * DynamoRunStore.deleteRun against the DynamoDB emulator: a run's records go in batches,
 * the run item last, so an interrupted delete can be run again and finish.
 */
import { describe, expect, it } from 'vitest';
import { DynamoRunStore } from '../../lambdas/adapters/dynamodb/run-store.js';
import type { Emulators } from '../../local/emulators.js';
import { emulatorDynamoClient, leaveUnprocessed } from '../support/dynamo-faults.js';
import { useEmulatorStores } from '../support/emulator-stores.js';
import { makeIteration, makeRun, makeTasks } from '../support/records.js';
import { nextRunId } from '../support/run-stores.js';

let emulators: Emulators;
let store: DynamoRunStore;

useEmulatorStores((stores) => ({ emulators, runs: store } = stores));

/** A run with `tasks` tasks and `iterations` iterations, stored. */
async function storeRun(runId: string, tasks: number, iterations: number): Promise<void> {
  await store.createRun(makeRun({ runId, storiesTotal: tasks }), makeTasks(runId, tasks));
  for (let iteration = 1; iteration <= iterations; iteration += 1)
    await store.createIteration(makeIteration({ runId, iteration }));
}

/** A store on its own client, which `fault` changes; destroy it after. */
function storeWith(fault: (client: ReturnType<typeof emulatorDynamoClient>) => () => number) {
  const client = emulatorDynamoClient(emulators, 1);
  const count = fault(client);
  return {
    faultyStore: new DynamoRunStore({ client, tableName: emulators.tableName }),
    count,
    close: () => client.destroy(),
  };
}

describe('Class: DynamoRunStore', () => {
  describe('Method: deleteRun', () => {
    it('deletes the run, its tasks and iterations in batches, and no other run’s', async () => {
      // Prepare
      const runId = nextRunId('delete');
      const other = nextRunId('delete-keep');
      await storeRun(runId, 30, 4);
      await storeRun(other, 2, 1);

      // Act
      const deleted = await store.deleteRun(runId);

      // Assess
      expect(deleted).toBe(1 + 30 + 4);
      expect(await store.getRun(runId)).toBeUndefined();
      expect(await store.listTasks(runId)).toEqual([]);
      expect(await store.listIterations(runId)).toEqual([]);
      expect(await store.getRun(other)).toBeDefined();
      expect(await store.listTasks(other)).toHaveLength(2);
      const listed = (await store.listRuns()).runs.map((run) => run.runId);
      expect(listed).not.toContain(runId);
    });

    it('retries the deletes DynamoDB hands back as unprocessed', async () => {
      // Prepare
      const runId = nextRunId('delete-throttled');
      await storeRun(runId, 28, 0);
      const { faultyStore, count, close } = storeWith((client) => leaveUnprocessed(client, 2, 5));

      // Act
      await faultyStore.deleteRun(runId);
      close();

      // Assess
      expect(count()).toBe(2);
      expect(await store.getRun(runId)).toBeUndefined();
      expect(await store.listTasks(runId)).toEqual([]);
    });

    it('keeps the run listed when interrupted before its run item, and a second delete finishes', async () => {
      // Prepare: the run item's DeleteItem fails after the batches went.
      const runId = nextRunId('delete-interrupted');
      await storeRun(runId, 3, 2);
      const { faultyStore, count, close } = storeWith((client) => {
        let refused = 0;
        client.middlewareStack.add(
          (next, context) => async (args) => {
            if (context.commandName !== 'DeleteItemCommand') return next(args);
            refused += 1;
            throw Object.assign(new Error('access denied'), { name: 'AccessDeniedException' });
          },
          { step: 'initialize', name: 'refuseDeleteItem' },
        );
        return () => refused;
      });

      // Act
      const interrupted = faultyStore.deleteRun(runId);
      await expect(interrupted).rejects.toThrow(/DeleteItem/);
      close();
      const listedAfterInterruption = await store.getRun(runId);
      const finished = await store.deleteRun(runId);

      // Assess
      expect(count()).toBe(1);
      expect(listedAfterInterruption?.runId).toBe(runId);
      expect(finished).toBe(1);
      expect(await store.getRun(runId)).toBeUndefined();
    });

    it('deletes nothing for a run that does not exist', async () => {
      expect(await store.deleteRun(nextRunId('never'))).toBe(0);
    });
  });
});
