/**
 * The storage calls on the single table. A failed condition comes back as an outcome
 * (conditional-writes.ts says what it means); every other SDK failure leaves as a core
 * error (aws-errors.ts, docs/data-model.md "Errors"), so no SDK error reaches a store.
 * Beyond sending, this class only pages queries and retries what the SDK leaves to the
 * caller (a batch's unprocessed items).
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchWriteCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { BatchWriteCommandInput, NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { TransientError } from '../../core/errors.js';
import { fullJitterMs, sleep } from '../backoff.js';
import { toStoreError } from '../aws-errors.js';
import type { Item } from './stored-items.js';

type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];
type Names = Record<string, string>;
type Values = Record<string, NativeAttributeValue>;

/** BatchWriteItem takes at most 25 requests. */
const BATCH_SIZE = 25;
/** Rounds of UnprocessedItems retries before giving up with a TransientError. */
const BATCH_MAX_ATTEMPTS = 8;
const BATCH_BASE_DELAY_MS = 50;
const BATCH_MAX_DELAY_MS = 2_000;

/** A conditional write as sent: done (with the item's new attributes for an update), or refused. */
export type ConditionalOutcome =
  | { readonly refused: false; readonly attributes?: Item }
  | { readonly refused: true; readonly cause: unknown };

export interface PutIf {
  item: Item;
  condition: string;
  names?: Names;
  values?: Values;
}

export interface UpdateIf {
  key: Item;
  /** The whole UpdateExpression: `SET #a = :a, ...`. */
  update: string;
  condition: string;
  names: Names;
  values: Values;
}

export interface ItemQuery {
  /** A global secondary index; its reads are eventually consistent, the table's are not. */
  index?: string;
  keyCondition: string;
  names: Names;
  values: Values;
  /** Descending sort-key order. */
  descending?: boolean;
  /** At most this many items; every page is read without it. */
  limit?: number;
  /** A FilterExpression: applied after the key condition, so a page may hold fewer items. */
  filter?: string;
}

/** One page of a query, and where the next one starts (absent on the last page). */
export interface ItemPage {
  items: Item[];
  lastKey?: Item;
}

/**
 * @example
 * const table = new ItemTable(createDynamoDocumentClient(), 'ralph');
 * const item = await table.get({ pk: 'RUN#r1', sk: 'META' }, 'run r1');
 */
export class ItemTable {
  readonly #client: DynamoDBDocumentClient;
  readonly #tableName: string;

  /** Takes a document client, or a plain client that it wraps in one. */
  constructor(client: DynamoDBDocumentClient | DynamoDBClient, tableName: string) {
    this.#client =
      client instanceof DynamoDBDocumentClient
        ? client
        : DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
    this.#tableName = tableName;
  }

  /** One strongly consistent GetItem. */
  async get(key: Item, what: string): Promise<Item | undefined> {
    const result = await this.#call('GetItem', what, () =>
      this.#client.send(
        new GetCommand({ TableName: this.#tableName, Key: key, ConsistentRead: true }),
      ),
    );
    return result.Item;
  }

  /** One conditional PutItem; a failed condition is an outcome, not an error. */
  async putIf(put: PutIf, what: string): Promise<ConditionalOutcome> {
    return this.#conditional('PutItem', what, async () => {
      await this.#client.send(
        new PutCommand({
          TableName: this.#tableName,
          Item: put.item,
          ConditionExpression: put.condition,
          ...(put.names === undefined ? {} : { ExpressionAttributeNames: put.names }),
          ...(put.values === undefined ? {} : { ExpressionAttributeValues: put.values }),
        }),
      );
      return undefined;
    });
  }

  /** One conditional UpdateItem returning the item as it now is. */
  async updateIf(update: UpdateIf, what: string): Promise<ConditionalOutcome> {
    return this.#conditional('UpdateItem', what, async () => {
      const result = await this.#client.send(
        new UpdateCommand({
          TableName: this.#tableName,
          Key: update.key,
          UpdateExpression: update.update,
          ConditionExpression: update.condition,
          ExpressionAttributeNames: update.names,
          ExpressionAttributeValues: update.values,
          ReturnValues: 'ALL_NEW',
        }),
      );
      return result.Attributes;
    });
  }

  /** Every matching item in sort-key order (or up to `limit`), all pages. */
  async query(query: ItemQuery, what: string): Promise<Item[]> {
    const { items } = await this.queryPage(query, undefined, what);
    return items;
  }

  /**
   * Up to `limit` matching items from `startKey` on, reading as many DynamoDB pages as that
   * takes; `lastKey` is where the next call continues. DynamoDB counts `Limit` before the
   * filter, so each page asks only for what is still missing and `lastKey` is always the
   * key after the last item returned: no item is skipped or repeated between pages.
   */
  async queryPage(query: ItemQuery, startKey: Item | undefined, what: string): Promise<ItemPage> {
    const { limit } = query;
    const items: Item[] = [];
    let nextKey = startKey;
    do {
      const page = await this.#call('Query', what, () =>
        this.#client.send(
          new QueryCommand({
            TableName: this.#tableName,
            ...(query.index === undefined ? { ConsistentRead: true } : { IndexName: query.index }),
            KeyConditionExpression: query.keyCondition,
            ...(query.filter === undefined ? {} : { FilterExpression: query.filter }),
            ExpressionAttributeNames: query.names,
            ExpressionAttributeValues: query.values,
            ...(query.descending === true ? { ScanIndexForward: false } : {}),
            ...(limit === undefined ? {} : { Limit: limit - items.length }),
            ...(nextKey === undefined ? {} : { ExclusiveStartKey: nextKey }),
          }),
        ),
      );
      items.push(...(page.Items ?? []));
      nextKey = page.LastEvaluatedKey;
    } while (nextKey !== undefined && (limit === undefined || items.length < limit));
    return nextKey === undefined ? { items } : { items, lastKey: nextKey };
  }

  /**
   * Unconditional puts in chunks of 25. DynamoDB may accept part of a batch and hand the
   * rest back as UnprocessedItems (throttling): those are retried with capped exponential
   * backoff and full jitter, a bounded number of times.
   */
  async batchPut(items: readonly Item[], what: string): Promise<void> {
    await this.#batchWrite(
      items.map((item) => ({ PutRequest: { Item: item } })),
      what,
    );
  }

  /** Deletes of `keys` (absent ones included: a no-op), batched and retried as batchPut's. */
  async batchDelete(keys: readonly Item[], what: string): Promise<void> {
    await this.#batchWrite(
      keys.map((key) => ({ DeleteRequest: { Key: key } })),
      what,
    );
  }

  /** One unconditional DeleteItem; an absent item is no error. */
  async delete(key: Item, what: string): Promise<void> {
    await this.#call('DeleteItem', what, () =>
      this.#client.send(new DeleteCommand({ TableName: this.#tableName, Key: key })),
    );
  }

  /** One conditional DeleteItem; a failed condition is an outcome, not an error. */
  async deleteIf(
    remove: { key: Item; condition: string; names?: Names; values?: Values },
    what: string,
  ): Promise<ConditionalOutcome> {
    return this.#conditional('DeleteItem', what, async () => {
      await this.#client.send(
        new DeleteCommand({
          TableName: this.#tableName,
          Key: remove.key,
          ConditionExpression: remove.condition,
          ...(remove.names === undefined ? {} : { ExpressionAttributeNames: remove.names }),
          ...(remove.values === undefined ? {} : { ExpressionAttributeValues: remove.values }),
        }),
      );
      return undefined;
    });
  }

  async #batchWrite(requests: readonly WriteRequest[], what: string): Promise<void> {
    for (let start = 0; start < requests.length; start += BATCH_SIZE) {
      let pending = requests.slice(start, start + BATCH_SIZE);
      for (let attempt = 1; pending.length > 0; attempt += 1) {
        if (attempt > BATCH_MAX_ATTEMPTS)
          throw new TransientError(
            `DynamoDB BatchWriteItem on ${what}: ${pending.length} items still unprocessed after ${BATCH_MAX_ATTEMPTS} attempts`,
          );
        if (attempt > 1)
          await sleep(fullJitterMs(attempt - 1, BATCH_BASE_DELAY_MS, BATCH_MAX_DELAY_MS));
        const batch = pending;
        const result = await this.#call('BatchWriteItem', what, () =>
          this.#client.send(new BatchWriteCommand({ RequestItems: { [this.#tableName]: batch } })),
        );
        pending = result.UnprocessedItems?.[this.#tableName] ?? [];
      }
    }
  }

  async #conditional(
    operation: string,
    what: string,
    write: () => Promise<Item | undefined>,
  ): Promise<ConditionalOutcome> {
    try {
      const attributes = await write();
      return attributes === undefined ? { refused: false } : { refused: false, attributes };
    } catch (error) {
      if (isConditionalCheckFailed(error)) return { refused: true, cause: error };
      throw toStoreError(error, `DynamoDB ${operation} on ${what}`);
    }
  }

  /** Runs one SDK call, turning its failure into a core error that names the record. */
  async #call<T>(operation: string, what: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw toStoreError(error, `DynamoDB ${operation} on ${what}`);
    }
  }
}

function isConditionalCheckFailed(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}
