/**
 * Conditional writes and what their refusal means, written once for every store on the
 * table (docs/data-model.md, "Retried writes"). Every conditional write carries a fresh
 * write id, stored with the item. When its condition fails, one consistent read says why:
 * the item carrying this write's id is an earlier attempt of this very write (the SDK
 * retried it after a lost reply), so the write counts as done; anything else is the
 * caller's refusal (a conflict, a claim lost, a missing item).
 *
 * `conditionalPut` and `conditionalUpdate` report what they found; `createItem` and
 * `saveVersioned` turn it into the core errors of a create and of an optimistic-locking
 * save. The table calls themselves are ItemTable's.
 */
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import type { z } from 'zod';
import {
  InvalidInputError,
  NotFoundError,
  TransientError,
  VersionConflictError,
  type RalphError,
} from '../../core/errors.js';
import { parseOrThrow } from '../../core/shared/validation.js';
import { TABLE_KEYS } from '../table-design.js';
import type { ItemTable } from './item-table.js';
import { dropUndefined, keyOf, recordOf, WRITE_ID, type Item } from './stored-items.js';

export interface ConditionalPut {
  /** The whole item, keys included; the write id is added here. */
  item: Item;
  condition: string;
  names?: Record<string, string>;
  values?: Record<string, NativeAttributeValue>;
  /** Names the item in errors: `pattern-set pointer of project p1`. */
  what: string;
}

export interface ConditionalUpdate {
  key: Item;
  /** The assignments of the SET clause (`#a = :a, ...`); the write id is set here too. */
  assignments: string;
  condition: string;
  names: Record<string, string>;
  values: Record<string, NativeAttributeValue>;
  what: string;
  /**
   * The update is not idempotent (a counter's increment): the condition also refuses an
   * item already carrying this write's id, so the SDK's retry of an attempt that landed is
   * refused, and recognised as done, instead of counting twice.
   */
  notIdempotent?: boolean;
}

/**
 * The outcome of a conditional write: written (by this call, possibly by an earlier attempt
 * of it that the SDK retried), with the item as it now is when known; or refused by the
 * condition, with the item that refused it (`undefined` when there is none; `unreadable`
 * when reading it back failed other than transiently).
 */
export type ConditionalWriteResult =
  | { readonly written: true; readonly item: Item | undefined }
  | { readonly written: false; readonly stored: Item | undefined; readonly cause: unknown }
  | { readonly written: false; readonly unreadable: true; readonly cause: unknown };

/**
 * One conditional PutItem carrying a fresh write id. Refused, it reads the item back: an
 * item with this write's id and exactly this write's attributes (key order and `undefined`
 * fields aside) is an earlier attempt of this very put, so the put counts as written. The
 * id, not the content, tells ours from someone's: a second caller writing the same record
 * is refused like any other.
 *
 * @example
 * const result = await conditionalPut(table, {
 *   item, condition: 'attribute_not_exists(#pk)', names: { '#pk': 'pk' }, what,
 * });
 * if (!result.written) throw new VersionConflictError(`${what} exists`);
 */
export async function conditionalPut(
  table: ItemTable,
  put: ConditionalPut,
): Promise<ConditionalWriteResult> {
  const written: Item = { ...dropUndefined(put.item), [WRITE_ID]: randomUUID() };
  const { condition, names, values, what } = put;
  const outcome = await table.putIf({ item: written, condition, names, values }, what);
  if (!outcome.refused) return { written: true, item: written };
  return readBack(table, keyOf(written), what, outcome.cause, (stored) =>
    isDeepStrictEqual(dropUndefined(stored), written),
  );
}

/**
 * One conditional UpdateItem that also stores a fresh write id, returning the item as it
 * now is. Refused, it reads the item back: this write's id on it means an earlier attempt
 * of this very update landed.
 *
 * @example
 * const result = await conditionalUpdate(table, {
 *   key, assignments: '#status = :running', condition: '#status = :planned',
 *   names: { '#status': 'status' }, values: { ':running': 'running', ':planned': 'planned' }, what,
 * });
 */
export async function conditionalUpdate(
  table: ItemTable,
  update: ConditionalUpdate,
): Promise<ConditionalWriteResult> {
  const writeId = randomUUID();
  const outcome = await table.updateIf(
    {
      key: update.key,
      update: `SET ${update.assignments}, #writeId = :writeId`,
      condition:
        update.notIdempotent === true
          ? `(${update.condition}) AND (attribute_not_exists(#writeId) OR #writeId <> :writeId)`
          : update.condition,
      names: { ...update.names, '#writeId': WRITE_ID },
      values: { ...update.values, ':writeId': writeId },
    },
    update.what,
  );
  if (!outcome.refused) return { written: true, item: outcome.attributes };
  return readBack(
    table,
    update.key,
    update.what,
    outcome.cause,
    (stored) => stored[WRITE_ID] === writeId,
  );
}

/**
 * Puts a new item if its key is free (`attribute_not_exists`); refused, it throws what
 * `exists` makes of the refusal, unless the item is this call's own earlier attempt.
 *
 * @example
 * await createItem(table, item, `run ${runId}`, (cause) =>
 *   new VersionConflictError(`run ${runId} already exists`, { cause }));
 */
export async function createItem(
  table: ItemTable,
  item: Item,
  what: string,
  exists: (cause: unknown) => RalphError,
): Promise<void> {
  const result = await conditionalPut(table, {
    item,
    condition: 'attribute_not_exists(#pk)',
    names: { '#pk': TABLE_KEYS.partitionKey },
    what,
  });
  if (!result.written) throw exists(result.cause);
}

/** How a versioned record is stored and named by {@link saveVersioned}. */
export interface VersionedRecord<R> {
  /** Names the record in InvalidInputError: `run record`. */
  label: string;
  item: (next: R) => Item;
  /** Names the item in conflicts: `run r1`. */
  what: (next: R) => string;
}

/**
 * Optimistic locking: validates the record at version `expectedVersion + 1`, then replaces
 * the whole item if its stored version is `expectedVersion`, and returns the saved record.
 * Refused, the item read back says which: this call's own earlier attempt (saved), no item
 * (NotFoundError), or a lost race (VersionConflictError naming both versions).
 *
 * @example
 * const saved = await saveVersioned(table, RunRecordSchema, run, run.version, {
 *   label: 'run record', item: runItem, what: (next) => `run ${next.runId}`,
 * });
 */
export async function saveVersioned<S extends z.ZodType<{ version: number }>>(
  table: ItemTable,
  schema: S,
  record: z.output<S>,
  expectedVersion: number,
  stored: VersionedRecord<z.output<S>>,
): Promise<z.output<S>> {
  const next = parseOrThrow(
    schema,
    { ...record, version: nextVersion(expectedVersion) },
    stored.label,
  );
  const what = stored.what(next);
  const result = await conditionalPut(table, {
    item: stored.item(next),
    condition: '#version = :expected',
    names: { '#version': 'version' },
    values: { ':expected': expectedVersion },
    what,
  });
  if (result.written) return next;
  throw refusedSave(schema, result, expectedVersion, what);
}

/**
 * The stores' create-or-save: `expectedVersion` undefined creates the record at version 1
 * (validated first; an existing item is a VersionConflictError, by default "<what> already
 * exists"), a number saves over that version ({@link saveVersioned}).
 *
 * @example
 * const saved = await createOrSave(table, ErrorGroupSchema, group, undefined, {
 *   label: 'error group', item: groupItem, what: groupName,
 * });
 */
export async function createOrSave<S extends z.ZodType<{ version: number }>>(
  table: ItemTable,
  schema: S,
  record: z.output<S>,
  expectedVersion: number | undefined,
  stored: VersionedRecord<z.output<S>> & { exists?: (what: string) => string },
): Promise<z.output<S>> {
  if (expectedVersion !== undefined)
    return saveVersioned(table, schema, record, expectedVersion, stored);
  const created = parseOrThrow(schema, { ...record, version: 1 }, stored.label);
  const what = stored.what(created);
  await createItem(
    table,
    stored.item(created),
    what,
    (cause) =>
      new VersionConflictError(stored.exists?.(what) ?? `${what} already exists`, { cause }),
  );
  return created;
}

/** Why a save's condition failed, as the core error its caller handles. */
function refusedSave(
  schema: z.ZodType<{ version: number }>,
  result: Exclude<ConditionalWriteResult, { written: true }>,
  expectedVersion: number,
  what: string,
): RalphError {
  const { cause } = result;
  const stored = 'stored' in result ? result.stored : null;
  if (stored === undefined) return new NotFoundError(`${what} does not exist`, { cause });
  const parsed = stored === null ? undefined : schema.safeParse(recordOf(stored));
  if (!parsed?.success)
    // The write failed on its condition; a failed diagnosis must not hide that.
    return new VersionConflictError(
      `${what} was not saved: its stored version is not ${expectedVersion} (the item could not be read to say more)`,
      { cause },
    );
  return new VersionConflictError(
    `${what} was not saved: expected version ${expectedVersion}, but the stored version is ${parsed.data.version}`,
    { cause },
  );
}

/**
 * Reads, consistently, the item a conditional write just failed on. A read that fails
 * transiently is thrown as a TransientError: whether the write landed is then unknown, and
 * a retry of the step can tell. Any other failure is `unreadable`, and the caller keeps
 * its refusal.
 */
async function readBack(
  table: ItemTable,
  key: Item,
  what: string,
  cause: unknown,
  isOwnWrite: (stored: Item) => boolean,
): Promise<ConditionalWriteResult> {
  let stored: Item | undefined;
  try {
    stored = await table.get(key, what);
  } catch (error) {
    if (error instanceof TransientError)
      throw new TransientError(
        `${what}: a conditional write failed, and reading the item back to tell an earlier attempt of the same write from a conflict failed too: ${error.message}`,
        { cause: error },
      );
    return { written: false, unreadable: true, cause };
  }
  if (stored !== undefined && isOwnWrite(stored)) return { written: true, item: stored };
  return { written: false, stored, cause };
}

/** The version a save over `expectedVersion` stores; InvalidInputError for no positive integer. */
export function nextVersion(expectedVersion: number): number {
  if (!Number.isSafeInteger(expectedVersion) || expectedVersion < 1)
    throw new InvalidInputError('expected version', [
      `(root): ${expectedVersion} is not a positive integer`,
    ]);
  return expectedVersion + 1;
}
