/**
 * What an item on the single table is beyond its record (docs/data-model.md, "Reading and
 * validation"): the key attributes and the write id, defined once here, and how a stored
 * item is turned back into a record, parsed with its schema.
 */
import type { NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import type { z } from 'zod';
import { RalphError } from '../../core/errors.js';
import { formatZodIssues } from '../../core/shared/validation.js';
import { TABLE_KEYS } from '../table-design.js';

/** An item as the document client reads and writes it. */
export type Item = Record<string, NativeAttributeValue>;

const { partitionKey: PK, sortKey: SK, gsi1 } = TABLE_KEYS;

/**
 * Not a record field: a random id per conditional write, stored with the item. A write
 * whose condition fails finds its own id on the item when an earlier attempt of the same
 * request landed (docs/data-model.md, "Retried writes").
 */
export const WRITE_ID = 'writeId';

/** What a stored item holds besides its record: the keys and the write id. */
const STORE_ATTRIBUTES = [PK, SK, gsi1.partitionKey, gsi1.sortKey, WRITE_ID] as const;

/** The record an item holds: the item without its keys and write id. */
export function recordOf(item: Item): Item {
  const record: Item = { ...item };
  for (const attribute of STORE_ATTRIBUTES) delete record[attribute];
  return record;
}

/** The primary key of an item: what GetItem and UpdateItem address it by. */
export function keyOf(item: Item): Item {
  return { [PK]: item[PK], [SK]: item[SK] };
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
