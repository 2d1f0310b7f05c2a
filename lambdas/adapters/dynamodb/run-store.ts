/**
 * RunStore over one DynamoDB table (single-table design, see docs/data-model.md).
 *
 * Every write of an existing item is one conditional PutItem on `version = :expected`
 * that stores `expected + 1`, except the runner's claim (planned → running), one
 * UpdateItem conditional on the status; creations are conditional on
 * `attribute_not_exists(pk)`. Each conditional write carries a fresh `writeId`, so that a
 * write the SDK retried after a lost reply is recognised as this call's own
 * (conditional-writes.ts). There are no transactions: the local emulator (dynalite) has
 * none, and the same code runs in AWS and locally.
 *
 * This class holds the run items; the iterations and tasks are IterationItems' and
 * TaskItems'.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { InvalidInputError, VersionConflictError } from '../../core/errors.js';
import { RunRecordSchema } from '../../core/schemas/run.js';
import type { RunRecord } from '../../core/schemas/run.js';
import type { RunsPage } from '../../core/schemas/run-views.js';
import type { IterationRecord } from '../../core/schemas/iteration.js';
import type { TaskRecord } from '../../core/schemas/task.js';
import { parseOrThrow } from '../../core/shared/validation.js';
import type { ListRunsOptions, RunStore } from '../../ports.js';
import type { ProjectSpendStore } from '../../metrics-ports.js';
import type { ProjectSpendEntry } from '../../core/schemas/project-spend.js';
import { TABLE_KEYS } from '../table-design.js';
import { createItem, saveVersioned } from './conditional-writes.js';
import { IterationItems } from './iteration-items.js';
import { ItemTable } from './item-table.js';
import { ProjectSpendItems } from './project-spend-items.js';
import { runItem, runKey, runStoreKeys } from './run-items.js';
import { decodeRunsCursor, encodeRunsCursor } from './runs-cursor.js';
import { parseStoredItem } from './stored-items.js';
import { TaskItems } from './task-items.js';

export interface DynamoRunStoreOptions {
  /** A document client, or a plain client that the store wraps in one. */
  client: DynamoDBDocumentClient | DynamoDBClient;
  tableName: string;
}

/**
 * @example
 * const store = new DynamoRunStore({ client: createDynamoDocumentClient(), tableName });
 * const run = await store.getRun('run-1');
 * if (run) await store.saveRun({ ...run, status: 'paused' }, run.version);
 */
export class DynamoRunStore implements RunStore, ProjectSpendStore {
  readonly #table: ItemTable;
  readonly #iterations: IterationItems;
  readonly #tasks: TaskItems;
  readonly #spend: ProjectSpendItems;

  constructor({ client, tableName }: DynamoRunStoreOptions) {
    this.#table = new ItemTable(client, tableName);
    this.#iterations = new IterationItems(this.#table);
    this.#tasks = new TaskItems(this.#table);
    this.#spend = new ProjectSpendItems(this.#table);
  }

  async addProjectSpend(spend: ProjectSpendEntry): Promise<void> {
    await this.#spend.add(spend);
  }

  async getProjectSpend(projectId: string, day: string): Promise<number> {
    return this.#spend.get(projectId, day);
  }

  /**
   * Refuses an existing run, writes the tasks in BatchWrite chunks, then the run item
   * (conditional). A run exists only once all its tasks do.
   */
  async createRun(run: RunRecord, tasks: readonly TaskRecord[]): Promise<void> {
    const record = parseOrThrow(RunRecordSchema, run, 'run record');
    const taskRecords = this.#tasks.parseForRun(record, tasks);

    // The read guards an existing run's tasks against a duplicate create; run ids are random
    // and only init-run of segment 1 creates, so the gap between read and write is moot.
    if (await this.getRun(record.runId))
      throw new VersionConflictError(`run ${record.runId} already exists`);
    await this.#tasks.putAll(record, taskRecords);
    await createItem(
      this.#table,
      runItem(record),
      `run ${record.runId}`,
      (cause) => new VersionConflictError(`run ${record.runId} already exists`, { cause }),
    );
  }

  async getRun(runId: string): Promise<RunRecord | undefined> {
    const what = `run ${runId}`;
    const item = await this.#table.get(runKey(runId), what);
    return item === undefined ? undefined : parseStoredItem(RunRecordSchema, item, what);
  }

  async listRuns(options: ListRunsOptions = {}): Promise<RunsPage> {
    const { limit, status, cursor } = options;
    if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 1))
      throw new InvalidInputError('list runs options', [
        `limit: ${limit} is not a positive integer`,
      ]);
    const { gsi1 } = TABLE_KEYS;
    const page = await this.#table.queryPage(
      {
        index: gsi1.indexName,
        keyCondition: '#gsi1pk = :runs',
        names: { '#gsi1pk': gsi1.partitionKey, ...(status ? { '#status': 'status' } : {}) },
        values: { ':runs': runStoreKeys.runsGsi1pk, ...(status ? { ':status': status } : {}) },
        ...(status ? { filter: '#status = :status' } : {}),
        descending: true,
        limit,
      },
      cursor === undefined ? undefined : decodeRunsCursor(cursor),
      'the run list',
    );
    const runs = page.items.map((item) => parseStoredItem(RunRecordSchema, item, 'run record'));
    return page.lastKey === undefined
      ? { runs }
      : { runs, nextCursor: encodeRunsCursor(page.lastKey) };
  }

  async saveRun(run: RunRecord, expectedVersion: number): Promise<RunRecord> {
    return saveVersioned(this.#table, RunRecordSchema, run, expectedVersion, {
      label: 'run record',
      item: runItem,
      what: (next) => `run ${next.runId}`,
    });
  }

  createIteration(iteration: IterationRecord): Promise<void> {
    return this.#iterations.create(iteration);
  }

  getIteration(runId: string, iteration: number): Promise<IterationRecord | undefined> {
    return this.#iterations.get(runId, iteration);
  }

  listIterations(runId: string): Promise<IterationRecord[]> {
    return this.#iterations.list(runId);
  }

  saveIteration(iteration: IterationRecord, expectedVersion: number): Promise<IterationRecord> {
    return this.#iterations.save(iteration, expectedVersion);
  }

  /** planned → running in one conditional write; see IterationItems.claim. */
  claimIteration(runId: string, iteration: number, startedAt: string): Promise<IterationRecord> {
    return this.#iterations.claim(runId, iteration, startedAt);
  }

  /** In priority order, then task id. */
  listTasks(runId: string): Promise<TaskRecord[]> {
    return this.#tasks.list(runId);
  }

  /** The priority is part of the key: saving a task with a changed priority finds no item. */
  saveTask(task: TaskRecord, expectedVersion: number): Promise<TaskRecord> {
    return this.#tasks.save(task, expectedVersion);
  }

  /**
   * One Query for the run's partition (keys only are used), BatchWriteItem deletes of
   * everything but the run item, then one DeleteItem of the run item: the run stays listed
   * until nothing else of it is left.
   */
  async deleteRun(runId: string): Promise<number> {
    const what = `run ${runId}`;
    const { partitionKey: pk, sortKey: sk } = TABLE_KEYS;
    const items = await this.#table.query(
      {
        keyCondition: '#pk = :pk',
        names: { '#pk': pk },
        values: { ':pk': runStoreKeys.runPk(runId) },
      },
      `the records of ${what}`,
    );
    const keys = items.map((item) => ({ [pk]: item[pk], [sk]: item[sk] }));
    const runItemKey = runKey(runId);
    const others = keys.filter((key) => key[sk] !== runItemKey[sk]);
    await this.#table.batchDelete(others, `the records of ${what}`);
    if (others.length < keys.length) await this.#table.delete(runItemKey, what);
    return keys.length;
  }
}
