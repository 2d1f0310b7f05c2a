/**
 * What every store on the single table shares (docs/data-model.md, "Retried writes" and
 * "Reading and validation"): the conditional put that recognises its own retried write,
 * parsing a stored item with its schema, and turning SDK failures into core errors.
 */
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBDocumentClient, NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import type { z } from 'zod';
import { RalphError, TransientError } from '../core/errors.js';
import { formatZodIssues } from '../core/shared/validation.js';
import { describeAwsError, isTransientAwsError } from './aws-clients.js';
import { TABLE_KEYS } from './table-design.js';

export type Item = Record<string, NativeAttributeValue>;

const { partitionKey: PK, sortKey: SK, gsi1 } = TABLE_KEYS;

/**
 * Not a record field: a random id per conditional write, stored with the item. A write
 * whose condition fails finds its own id on the item when an earlier attempt of the same
 * request landed.
 */
export const WRITE_ID = 'writeId';
/** What `parseStoredItem` removes before parsing: the keys and the write id. */
const STORE_ATTRIBUTES = [PK, SK, gsi1.partitionKey, gsi1.sortKey, WRITE_ID] as const;

export interface ConditionalPut {
  tableName: string;
  /** The whole item, keys included; the write id is added here. */
  item: Item;
  condition: string;
  names?: Record<string, string>;
  values?: Record<string, NativeAttributeValue>;
  /** Names the item in errors: `pattern-set pointer of project p1`. */
  what: string;
}

/**
 * The outcome of {@link conditionalPut}: written (by this call, possibly by an earlier
 * attempt of it that the SDK retried), or refused by the condition, with the item that
 * refused it (`undefined` when there is none; `unreadable` when reading it back failed
 * other than transiently).
 */
export type ConditionalPutResult =
  | { readonly written: true }
  | { readonly written: false; readonly stored: Item | undefined; readonly cause: unknown }
  | { readonly written: false; readonly unreadable: true; readonly cause: unknown };

/**
 * One conditional PutItem carrying a fresh write id. When the condition fails, one
 * consistent read says why: an item with this write's id and exactly this write's
 * attributes is an earlier attempt of this very put (the SDK retried it after a lost
 * reply), so the put counts as written. A transient failure of that read is a
 * TransientError (whether the write landed is unknown; a retry of the step can tell).
 *
 * @example
 * const result = await conditionalPut(client, {
 *   tableName, item, condition: 'attribute_not_exists(#pk)', names: { '#pk': 'pk' }, what,
 * });
 * if (!result.written) throw new VersionConflictError(`${what} exists`);
 */
export async function conditionalPut(
  client: DynamoDBDocumentClient,
  put: ConditionalPut,
): Promise<ConditionalPutResult> {
  const written: Item = { ...dropUndefined(put.item), [WRITE_ID]: randomUUID() };
  try {
    await client.send(
      new PutCommand({
        TableName: put.tableName,
        Item: written,
        ConditionExpression: put.condition,
        ...(put.names === undefined ? {} : { ExpressionAttributeNames: put.names }),
        ...(put.values === undefined ? {} : { ExpressionAttributeValues: put.values }),
      }),
    );
    return { written: true };
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw toDynamoStoreError(error, 'PutItem', put.what);
    let stored: Item | undefined;
    try {
      const result = await client.send(
        new GetCommand({
          TableName: put.tableName,
          Key: { [PK]: written[PK], [SK]: written[SK] },
          ConsistentRead: true,
        }),
      );
      stored = result.Item;
    } catch (readError) {
      if (isTransientAwsError(readError))
        throw new TransientError(
          `${put.what}: a conditional write failed, and reading the item back to tell an earlier attempt of the same write from a conflict failed too: ${describeAwsError(readError)}`,
          { cause: readError },
        );
      return { written: false, unreadable: true, cause: error };
    }
    if (stored !== undefined && isOwnWrite(stored, written)) return { written: true };
    return { written: false, stored, cause: error };
  }
}

/** This write's id, and nothing but this write's attributes, key order aside. */
function isOwnWrite(stored: Item, written: Item): boolean {
  return (
    stored[WRITE_ID] === written[WRITE_ID] &&
    isDeepStrictEqual(dropUndefined(stored), dropUndefined(written))
  );
}

/**
 * Parses a stored item (keys and write id removed) with its schema; one that does not fit
 * is a RalphError `CORRUPT_RECORD` naming its key and every bad path.
 *
 * @example
 * const pointer = parseStoredItem(PatternSetPointerSchema, item, 'pattern-set pointer');
 */
export function parseStoredItem<S extends z.ZodType>(
  schema: S,
  item: Item,
  what: string,
): z.output<S> {
  const result = schema.safeParse(recordOf(item));
  if (result.success) return result.data;
  const key = `${PK}=${String(item[PK])} ${SK}=${String(item[SK])}`;
  throw new RalphError(
    `stored item ${key} (${what}) does not match its schema:\n  ${formatZodIssues(result.error).join('\n  ')}`,
    { code: 'CORRUPT_RECORD' },
  );
}

/** The record an item holds: the item without its keys and write id. */
export function recordOf(item: Item): Item {
  const record: Item = { ...item };
  for (const attribute of STORE_ATTRIBUTES) delete record[attribute];
  return record;
}

/**
 * Optional fields left `undefined` (even nested) are dropped here, so a store does not
 * rely on the client's `removeUndefinedValues`.
 */
export function dropUndefined<T>(value: T): T {
  if (Array.isArray(value)) return value.map((entry: unknown) => dropUndefined(entry)) as T;
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (entry !== undefined) out[key] = dropUndefined(entry);
  }
  return out as T;
}

export function isConditionalCheckFailed(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}

/** A core error for a failed DynamoDB call: TransientError when worth retrying later. */
export function toDynamoStoreError(error: unknown, operation: string, what: string): RalphError {
  if (error instanceof RalphError) return error;
  const message = `DynamoDB ${operation} on ${what} failed: ${describeAwsError(error)}`;
  if (isTransientAwsError(error)) return new TransientError(message, { cause: error });
  return new RalphError(message, { cause: error, code: 'STORAGE_ERROR' });
}
