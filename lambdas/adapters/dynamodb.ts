/**
 * RunStore over one DynamoDB table (single-table design, see docs/data-model.md).
 *
 * Every write of an existing item is one conditional PutItem on `version = :expected`
 * that stores `expected + 1`, except the runner's claim (planned → running), one
 * UpdateItem conditional on the status; creations are conditional on
 * `attribute_not_exists(pk)`.
 * Each conditional write carries a fresh `writeId`, so that when the SDK retries a put
 * whose reply was lost and the retry fails on its own condition, the store recognises
 * its own write and reports success.
 * There are no transactions: the local emulator (dynalite) has none, and the same code
 * runs in AWS and locally.
 */
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchWriteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { BatchWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { z } from 'zod';
import {
  InvalidInputError,
  IterationClaimedError,
  NotFoundError,
  RalphError,
  TransientError,
  VersionConflictError,
} from '../core/errors.js';
import {
  IterationRecordSchema,
  RunRecordSchema,
  TaskRecordSchema,
} from '../core/schemas/records.js';
import type { IterationRecord, RunRecord, TaskRecord } from '../core/schemas/records.js';
import { formatZodIssues } from '../core/shared/validation.js';
import type { ListRunsOptions, RunStore } from '../ports.js';
import {
  dropUndefined,
  isConditionalCheckFailed,
  toDynamoStoreError,
  WRITE_ID,
  type Item,
} from './dynamo-items.js';
import { TABLE_KEYS } from './table-design.js';

type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];

const { partitionKey: PK, sortKey: SK, gsi1 } = TABLE_KEYS;
const KEY_ATTRIBUTES = [PK, SK, gsi1.partitionKey, gsi1.sortKey] as const;
/**
 * Not a record field: a random id per conditional write, stored with the item. A write
 * whose condition fails finds its own id on the item when an earlier attempt of the same
 * request landed (docs/data-model.md, "Retried writes").
 */
/** What `parseItem` removes before parsing: the keys and the write id. */
const STORE_ATTRIBUTES = [...KEY_ATTRIBUTES, WRITE_ID] as const;

/** BatchWriteItem takes at most 25 requests. */
const BATCH_SIZE = 25;
/** Rounds of UnprocessedItems retries before giving up with a TransientError. */
const BATCH_MAX_ATTEMPTS = 8;
const BATCH_BASE_DELAY_MS = 50;
const BATCH_MAX_DELAY_MS = 2_000;

/** Iteration numbers are padded to this width so that sort keys sort numerically. */
const ITERATION_DIGITS = 6;
const MAX_ITERATION = 10 ** ITERATION_DIGITS - 1;
const PRIORITY_DIGITS = String(Number.MAX_SAFE_INTEGER).length;

/**
 * The key builders, exported so that docs/data-model.md, the tests and any repair script
 * name items exactly as the store does.
 */
export const runStoreKeys = {
  runPk: (runId: string) => `RUN#${runId}`,
  runSk: 'META',
  /** `ITER#000002` sorts before `ITER#000010`. */
  iterationSk: (iteration: number) => {
    if (!Number.isSafeInteger(iteration) || iteration < 1 || iteration > MAX_ITERATION)
      throw new InvalidInputError('iteration number', [
        `(root): ${iteration} is outside 1..${MAX_ITERATION} (the sort key holds ${ITERATION_DIGITS} digits)`,
      ]);
    return `ITER#${String(iteration).padStart(ITERATION_DIGITS, '0')}`;
  },
  /**
   * `TASK#<priority>#<taskId>`: the priority is encoded so that byte order is numeric order
   * over every safe integer. Non-negative priorities are `P` + 16 digits; negative ones are
   * `N` + the 16-digit value of `MAX_SAFE_INTEGER + priority`. `N` < `P`, and within `N` a
   * larger offset value means a larger priority, so -5 < -1 < 0 < 1 < 10. Ties sort by
   * task id, which ends the key.
   */
  taskSk: (priority: number, taskId: string) => `TASK#${priorityKey(priority)}#${taskId}`,
  iterationPrefix: 'ITER#',
  taskPrefix: 'TASK#',
  /** All runs share one GSI partition: runs are created rarely, so it never gets hot. */
  runsGsi1pk: 'RUNS',
  /** UTC so that a run created with a `+02:00` offset still sorts by instant. */
  runGsi1sk: (createdAt: string, runId: string) => `${new Date(createdAt).toISOString()}#${runId}`,
} as const;

function priorityKey(priority: number): string {
  if (!Number.isSafeInteger(priority))
    throw new InvalidInputError('task priority', [`(root): ${priority} is not a safe integer`]);
  return priority >= 0
    ? `P${String(priority).padStart(PRIORITY_DIGITS, '0')}`
    : `N${String(Number.MAX_SAFE_INTEGER + priority).padStart(PRIORITY_DIGITS, '0')}`;
}

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
export class DynamoRunStore implements RunStore {
  readonly #client: DynamoDBDocumentClient;
  readonly #tableName: string;

  constructor({ client, tableName }: DynamoRunStoreOptions) {
    this.#client =
      client instanceof DynamoDBDocumentClient
        ? client
        : DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
    this.#tableName = tableName;
  }

  /**
   * Refuses an existing run, writes the tasks in BatchWrite chunks, then the run item
   * (conditional). A run exists only once all its tasks do.
   */
  async createRun(run: RunRecord, tasks: readonly TaskRecord[]): Promise<void> {
    const record = parseInput(RunRecordSchema, run, 'run record');
    const taskRecords = tasks.map((task, index) =>
      parseInput(TaskRecordSchema, task, `task record [${index}]`),
    );
    checkTasksBelongToRun(record, taskRecords);

    // The read guards an existing run's tasks against a duplicate create; run ids are random
    // and only init-run of segment 1 creates, so the gap between read and write is moot.
    if (await this.getRun(record.runId))
      throw new VersionConflictError(`run ${record.runId} already exists`);
    await this.#batchPut(
      taskRecords.map((task) => this.#taskItem(task)),
      `tasks of run ${record.runId}`,
    );
    await this.#create(
      this.#runItem(record),
      record,
      RunRecordSchema,
      `run ${record.runId}`,
      (cause) => new VersionConflictError(`run ${record.runId} already exists`, { cause }),
    );
  }

  async getRun(runId: string): Promise<RunRecord | undefined> {
    return this.#get(
      { [PK]: runStoreKeys.runPk(runId), [SK]: runStoreKeys.runSk },
      RunRecordSchema,
      `run ${runId}`,
    );
  }

  async listRuns(options: ListRunsOptions = {}): Promise<RunRecord[]> {
    const { limit } = options;
    if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 1))
      throw new InvalidInputError('list runs options', [
        `limit: ${limit} is not a positive integer`,
      ]);

    const runs: RunRecord[] = [];
    let startKey: Item | undefined;
    do {
      const page = await this.#call('Query', 'the run list', () =>
        this.#client.send(
          new QueryCommand({
            TableName: this.#tableName,
            IndexName: gsi1.indexName,
            KeyConditionExpression: '#gsi1pk = :runs',
            ExpressionAttributeNames: { '#gsi1pk': gsi1.partitionKey },
            ExpressionAttributeValues: { ':runs': runStoreKeys.runsGsi1pk },
            ScanIndexForward: false,
            ...(limit === undefined ? {} : { Limit: limit - runs.length }),
            ...(startKey === undefined ? {} : { ExclusiveStartKey: startKey }),
          }),
        ),
      );
      for (const item of page.Items ?? [])
        runs.push(parseItem(RunRecordSchema, item, 'run record'));
      startKey = page.LastEvaluatedKey;
    } while (startKey !== undefined && (limit === undefined || runs.length < limit));
    return limit === undefined ? runs : runs.slice(0, limit);
  }

  async saveRun(run: RunRecord, expectedVersion: number): Promise<RunRecord> {
    return this.#save(RunRecordSchema, run, expectedVersion, 'run record', {
      item: (next) => this.#runItem(next),
      what: (next) => `run ${next.runId}`,
    });
  }

  async createIteration(iteration: IterationRecord): Promise<void> {
    const record = parseInput(IterationRecordSchema, iteration, 'iteration record');
    await this.#create(
      this.#iterationItem(record),
      record,
      IterationRecordSchema,
      `iteration ${record.iteration} of run ${record.runId}`,
      (cause) => new IterationClaimedError(record.runId, record.iteration, { cause }),
    );
  }

  async getIteration(runId: string, iteration: number): Promise<IterationRecord | undefined> {
    return this.#get(
      { [PK]: runStoreKeys.runPk(runId), [SK]: runStoreKeys.iterationSk(iteration) },
      IterationRecordSchema,
      `iteration ${iteration} of run ${runId}`,
    );
  }

  async listIterations(runId: string): Promise<IterationRecord[]> {
    const items = await this.#queryRun(runId, runStoreKeys.iterationPrefix);
    return items.map((item) => parseItem(IterationRecordSchema, item, 'iteration record'));
  }

  async saveIteration(
    iteration: IterationRecord,
    expectedVersion: number,
  ): Promise<IterationRecord> {
    return this.#save(IterationRecordSchema, iteration, expectedVersion, 'iteration record', {
      item: (next) => this.#iterationItem(next),
      what: (next) => `iteration ${next.iteration} of run ${next.runId}`,
    });
  }

  /**
   * planned → running in one conditional UpdateItem, so a runner claims without reading
   * the record first. The condition is the status itself: of two runners only one sees
   * `planned`. The version still moves on, so a writer that read the record before the
   * claim conflicts. When the condition fails, one consistent read says why: this call's
   * own write id means an earlier attempt of this very update landed (the SDK retried it
   * after a lost reply), and the claim succeeds.
   */
  async claimIteration(
    runId: string,
    iteration: number,
    startedAt: string,
  ): Promise<IterationRecord> {
    const what = `iteration ${iteration} of run ${runId}`;
    parseInput(IterationRecordSchema.shape.startedAt, startedAt, `${what}: startedAt`);
    const key = { [PK]: runStoreKeys.runPk(runId), [SK]: runStoreKeys.iterationSk(iteration) };
    const writeId = randomUUID();
    let claimed: Item | undefined;
    try {
      const result = await this.#client.send(
        new UpdateCommand({
          TableName: this.#tableName,
          Key: key,
          UpdateExpression:
            'SET #status = :running, #startedAt = :startedAt, #version = #version + :one, #writeId = :writeId',
          ConditionExpression: '#status = :planned',
          ExpressionAttributeNames: {
            '#status': 'status',
            '#startedAt': 'startedAt',
            '#version': 'version',
            '#writeId': WRITE_ID,
          },
          ExpressionAttributeValues: {
            ':running': 'running',
            ':planned': 'planned',
            ':startedAt': startedAt,
            ':one': 1,
            ':writeId': writeId,
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      claimed = result.Attributes;
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw toDynamoStoreError(error, 'UpdateItem', what);
      const stored = await this.#readBack(key, IterationRecordSchema, what);
      if (stored.readable && stored.item === undefined)
        throw new NotFoundError(`${what} does not exist`, { cause: error });
      if (!stored.readable || stored.item?.[WRITE_ID] !== writeId)
        throw new IterationClaimedError(runId, iteration, { cause: error });
      claimed = stored.item;
    }
    if (claimed === undefined)
      throw new RalphError(`${what}: the claim returned no attributes`, { code: 'CORRUPT_RECORD' });
    return parseItem(IterationRecordSchema, claimed, what);
  }

  async listTasks(runId: string): Promise<TaskRecord[]> {
    // The sort key already orders by priority, then task id.
    const items = await this.#queryRun(runId, runStoreKeys.taskPrefix);
    return items.map((item) => parseItem(TaskRecordSchema, item, 'task record'));
  }

  /** The priority is part of the key: saving a task with a changed priority finds no item. */
  async saveTask(task: TaskRecord, expectedVersion: number): Promise<TaskRecord> {
    return this.#save(TaskRecordSchema, task, expectedVersion, 'task record', {
      item: (next) => this.#taskItem(next),
      what: (next) => `task ${next.taskId} (priority ${next.priority}) of run ${next.runId}`,
    });
  }

  #runItem(run: RunRecord): Item {
    return {
      ...dropUndefined(run),
      [PK]: runStoreKeys.runPk(run.runId),
      [SK]: runStoreKeys.runSk,
      [gsi1.partitionKey]: runStoreKeys.runsGsi1pk,
      [gsi1.sortKey]: runStoreKeys.runGsi1sk(run.createdAt, run.runId),
    };
  }

  #iterationItem(iteration: IterationRecord): Item {
    return {
      ...dropUndefined(iteration),
      [PK]: runStoreKeys.runPk(iteration.runId),
      [SK]: runStoreKeys.iterationSk(iteration.iteration),
    };
  }

  #taskItem(task: TaskRecord): Item {
    return {
      ...dropUndefined(task),
      [PK]: runStoreKeys.runPk(task.runId),
      [SK]: runStoreKeys.taskSk(task.priority, task.taskId),
    };
  }

  /**
   * Puts a new item if its key is free. When the condition fails, the item is read back:
   * if it carries this call's write id and is exactly `record`, an earlier attempt of this
   * very put landed (the SDK retried it because the reply was lost), so the create
   * succeeds; anything else throws `exists()`.
   */
  async #create<S extends z.ZodType>(
    item: Item,
    record: z.output<S>,
    schema: S,
    what: string,
    exists: (cause: unknown) => RalphError,
  ): Promise<void> {
    const written: Item = { ...item, [WRITE_ID]: randomUUID() };
    try {
      await this.#client.send(
        new PutCommand({
          TableName: this.#tableName,
          Item: written,
          ConditionExpression: 'attribute_not_exists(#pk)',
          ExpressionAttributeNames: { '#pk': PK },
        }),
      );
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw toDynamoStoreError(error, 'PutItem', what);
      const stored = await this.#readBack(written, schema, what);
      if (stored.readable && isOwnWrite(stored, written, record)) return;
      throw exists(error);
    }
  }

  /**
   * Replaces the whole item if its stored version is `expectedVersion`. When the condition
   * fails, one consistent read says why: an item that carries this call's write id, at
   * version `expectedVersion + 1` and exactly `record`, is an earlier attempt of this very
   * put (the SDK retried it because the reply was lost), so the save succeeds; otherwise a
   * lost race (VersionConflictError with both versions) or a record that is not there at
   * all (NotFoundError).
   */
  /** Validates the record at the next version, then writes it with #update. */
  async #save<S extends z.ZodType<{ version: number }>>(
    schema: S,
    record: z.output<S>,
    expectedVersion: number,
    label: string,
    describe: { item: (next: z.output<S>) => Item; what: (next: z.output<S>) => string },
  ): Promise<z.output<S>> {
    const next = parseInput(schema, { ...record, version: nextVersion(expectedVersion) }, label);
    await this.#update(describe.item(next), next, expectedVersion, describe.what(next), schema);
    return next;
  }

  async #update<S extends z.ZodType<{ version: number }>>(
    item: Item,
    record: z.output<S>,
    expectedVersion: number,
    what: string,
    schema: S,
  ): Promise<void> {
    const written: Item = { ...item, [WRITE_ID]: randomUUID() };
    try {
      await this.#client.send(
        new PutCommand({
          TableName: this.#tableName,
          Item: written,
          ConditionExpression: '#version = :expected',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':expected': expectedVersion },
        }),
      );
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw toDynamoStoreError(error, 'PutItem', what);
      const stored = await this.#readBack(written, schema, what);
      if (!stored.readable)
        // The write failed on its condition; a failed diagnosis must not hide that.
        throw new VersionConflictError(
          `${what} was not saved: its stored version is not ${expectedVersion} (the item could not be read to say more)`,
          { cause: error },
        );
      if (stored.record === undefined)
        throw new NotFoundError(`${what} does not exist`, { cause: error });
      if (stored.record.version === expectedVersion + 1 && isOwnWrite(stored, written, record))
        return;
      throw new VersionConflictError(
        `${what} was not saved: expected version ${expectedVersion}, but the stored version is ${stored.record.version}`,
        { cause: error },
      );
    }
  }

  /**
   * Reads, consistently, the item a conditional write just failed on. A read that fails
   * transiently is thrown as a TransientError: whether the write landed is then unknown,
   * and a retry of the step can tell. Any other failure (a corrupt item, say) is
   * `readable: false`, and the caller keeps its conflict error.
   */
  async #readBack<S extends z.ZodType>(item: Item, schema: S, what: string): Promise<ReadBack<S>> {
    try {
      const result = await this.#call('GetItem', what, () =>
        this.#client.send(
          new GetCommand({
            TableName: this.#tableName,
            Key: { [PK]: item[PK], [SK]: item[SK] },
            ConsistentRead: true,
          }),
        ),
      );
      if (result.Item === undefined) return { readable: true, item: undefined, record: undefined };
      return { readable: true, item: result.Item, record: parseItem(schema, result.Item, what) };
    } catch (error) {
      if (error instanceof TransientError)
        throw new TransientError(
          `${what}: a conditional write failed, and reading the item back to tell an earlier attempt of the same write from a conflict failed too: ${error.message}`,
          { cause: error },
        );
      return { readable: false };
    }
  }

  async #get<S extends z.ZodType>(
    key: Item,
    schema: S,
    what: string,
  ): Promise<z.output<S> | undefined> {
    const result = await this.#call('GetItem', what, () =>
      this.#client.send(
        new GetCommand({ TableName: this.#tableName, Key: key, ConsistentRead: true }),
      ),
    );
    return result.Item === undefined ? undefined : parseItem(schema, result.Item, what);
  }

  /** Every item of a run whose sort key starts with `prefix`, in sort-key order, all pages. */
  async #queryRun(runId: string, prefix: string): Promise<Item[]> {
    const items: Item[] = [];
    let startKey: Item | undefined;
    do {
      const page = await this.#call('Query', `${prefix} items of run ${runId}`, () =>
        this.#client.send(
          new QueryCommand({
            TableName: this.#tableName,
            KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
            ExpressionAttributeNames: { '#pk': PK, '#sk': SK },
            ExpressionAttributeValues: { ':pk': runStoreKeys.runPk(runId), ':prefix': prefix },
            ConsistentRead: true,
            ...(startKey === undefined ? {} : { ExclusiveStartKey: startKey }),
          }),
        ),
      );
      items.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey !== undefined);
    return items;
  }

  /**
   * Unconditional puts in chunks of 25. DynamoDB may accept part of a batch and hand the
   * rest back as UnprocessedItems (throttling): those are retried with capped exponential
   * backoff and full jitter, a bounded number of times.
   */
  async #batchPut(items: readonly Item[], what: string): Promise<void> {
    for (let start = 0; start < items.length; start += BATCH_SIZE) {
      let pending: WriteRequest[] = items
        .slice(start, start + BATCH_SIZE)
        .map((item) => ({ PutRequest: { Item: item } }));
      for (let attempt = 1; pending.length > 0; attempt += 1) {
        if (attempt > BATCH_MAX_ATTEMPTS)
          throw new TransientError(
            `DynamoDB BatchWriteItem on ${what}: ${pending.length} items still unprocessed after ${BATCH_MAX_ATTEMPTS} attempts`,
          );
        if (attempt > 1) await sleep(backoffMs(attempt - 1));
        const batch = pending;
        const result = await this.#call('BatchWriteItem', what, () =>
          this.#client.send(new BatchWriteCommand({ RequestItems: { [this.#tableName]: batch } })),
        );
        pending = result.UnprocessedItems?.[this.#tableName] ?? [];
      }
    }
  }

  /** Runs one SDK call, turning its failure into a core error that names the record. */
  async #call<T>(operation: string, what: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw toDynamoStoreError(error, operation, what);
    }
  }
}

function nextVersion(expectedVersion: number): number {
  if (!Number.isSafeInteger(expectedVersion) || expectedVersion < 1)
    throw new InvalidInputError('expected version', [
      `(root): ${expectedVersion} is not a positive integer`,
    ]);
  return expectedVersion + 1;
}

function checkTasksBelongToRun(run: RunRecord, tasks: readonly TaskRecord[]): void {
  const issues: string[] = [];
  const seen = new Set<string>();
  tasks.forEach((task, index) => {
    if (task.runId !== run.runId)
      issues.push(`[${index}].runId: "${task.runId}" is not the run's id "${run.runId}"`);
    if (seen.has(task.taskId)) issues.push(`[${index}].taskId: duplicate task id "${task.taskId}"`);
    seen.add(task.taskId);
  });
  // storiesTotal is what status and summary report: it must be the number of task items.
  if (tasks.length !== run.storiesTotal)
    issues.push(`(root): ${tasks.length} tasks, but the run says storiesTotal ${run.storiesTotal}`);
  if (issues.length > 0) throw new InvalidInputError(`tasks of run ${run.runId}`, issues);
}

function parseInput<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new InvalidInputError(what, formatZodIssues(result.error));
  return result.data;
}

/** Parses a stored item, naming its key and every bad path when it does not fit the schema. */
function parseItem<S extends z.ZodType>(schema: S, item: Item, what: string): z.output<S> {
  const record: Item = { ...item };
  for (const attribute of STORE_ATTRIBUTES) delete record[attribute];
  const result = schema.safeParse(record);
  if (result.success) return result.data;
  const key = `${PK}=${String(item[PK])} ${SK}=${String(item[SK])}`;
  throw new RalphError(
    `stored item ${key} (${what}) does not match its schema:\n  ${formatZodIssues(result.error).join('\n  ')}`,
    { code: 'CORRUPT_RECORD' },
  );
}

type ReadBack<S extends z.ZodType> =
  { readable: true; item: Item | undefined; record: z.output<S> | undefined } | { readable: false };

/**
 * Whether the stored item is the one `written` put there: it carries the same write id
 * (fresh per call, so another caller that wrote an identical record does not count) and
 * its parsed record equals `record`, key order and `undefined` fields aside.
 */
function isOwnWrite(
  stored: { item: Item | undefined; record: unknown },
  written: Item,
  record: unknown,
): boolean {
  return (
    stored.item !== undefined &&
    stored.item[WRITE_ID] === written[WRITE_ID] &&
    isDeepStrictEqual(dropUndefined(stored.record), dropUndefined(record))
  );
}

function backoffMs(retry: number): number {
  const ceiling = Math.min(BATCH_MAX_DELAY_MS, BATCH_BASE_DELAY_MS * 2 ** retry);
  return Math.round(Math.random() * ceiling);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
