/**
 * DynamoRunStore's iteration items against the DynamoDB emulator: the create that claims
 * a number, the runner's claim, listing in order and saving.
 */
import { describe, expect, it } from 'vitest';
import type { DynamoRunStore } from '../../lambdas/adapters/dynamodb/run-store.js';
import {
  IterationClaimedError,
  NotFoundError,
  VersionConflictError,
} from '../../lambdas/core/errors.js';
import type { Emulators } from '../../local/emulators.js';
import { useEmulatorStores } from '../support/emulator-stores.js';
import { makeIteration, makeRun, makeTask, makeTasks } from '../support/records.js';
import { nextRunId, storeLosingFirstReply, storeWithSmallPages } from '../support/run-stores.js';

let emulators: Emulators;
let store: DynamoRunStore;

useEmulatorStores((stores) => ({ emulators, runs: store } = stores));

describe('Class: DynamoRunStore', () => {
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
      const { lossyStore, putAttempts, close } = storeLosingFirstReply(emulators, 'PutItemCommand');

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
      const { lossyStore, putAttempts, close } = storeLosingFirstReply(
        emulators,
        'UpdateItemCommand',
      );

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
      // More runs than one page of the run list holds (this file's table has no others).
      for (const other of ['pages-a', 'pages-b', 'pages-c'])
        await store.createRun(makeRun({ runId: nextRunId(other) }), []);
      const { pagedStore, close } = storeWithSmallPages(emulators, 2);

      // Act
      const iterations = await pagedStore.listIterations(runId);
      const tasks = await pagedStore.listTasks(runId);
      const page = await pagedStore.listRuns({ limit: 3 });
      close();

      // Assess
      expect(iterations.map((record) => record.iteration)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(tasks).toHaveLength(5);
      expect(page).toEqual(await store.listRuns({ limit: 3 }));
      expect(page.runs).toHaveLength(3);
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
      const { lossyStore, putAttempts, close } = storeLosingFirstReply(emulators, 'PutItemCommand');

      // Act
      const running = await lossyStore.saveIteration({ ...planned, status: 'running' }, 1);
      close();

      // Assess
      expect(putAttempts()).toBe(2);
      expect(running.version).toBe(2);
      expect(await store.getIteration(runId, 1)).toEqual(running);
    });
  });
});
