/**
 * The conditional writes every store on the table shares, against the DynamoDB emulator:
 * a write whose reply was lost is recognised by its write id when the SDK's retry fails
 * on its own condition; a real conflict, an identical write by another call and a missing
 * item are refusals; a read-back that fails says so.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  conditionalPut,
  conditionalUpdate,
  createItem,
  saveVersioned,
} from '../../lambdas/adapters/dynamodb/conditional-writes.js';
import { ItemTable } from '../../lambdas/adapters/dynamodb/item-table.js';
import type { Item } from '../../lambdas/adapters/dynamodb/stored-items.js';
import {
  InvalidInputError,
  NotFoundError,
  TransientError,
  VersionConflictError,
} from '../../lambdas/core/errors.js';
import type { Emulators } from '../../local/emulators.js';
import { emulatorDynamoClient, failReads, loseFirstReply } from '../support/dynamo-faults.js';
import { useEmulatorStores } from '../support/emulator-stores.js';

let emulators: Emulators;
let dynamo: DynamoDBDocumentClient;
let table: ItemTable;

useEmulatorStores((stores) => {
  ({ emulators, dynamo } = stores);
  table = new ItemTable(dynamo, emulators.tableName);
});

/** A record with an optimistic-locking version, as the stores keep them. */
const NoteSchema = z.object({ text: z.string(), version: z.number().int().positive() });
type Note = z.infer<typeof NoteSchema>;

/** Every test writes its own item: the table is shared by the whole file. */
let itemCounter = 0;
function nextKey(label: string): Item {
  itemCounter += 1;
  return { pk: `NOTE#${label}-${itemCounter}`, sk: 'META' };
}

function noteItem(key: Item, note: Note): Item {
  return { ...note, ...key };
}

const keyIsFree = { condition: 'attribute_not_exists(#pk)', names: { '#pk': 'pk' } };

/** A table whose client loses the reply to its first `commandName` request. */
function tableLosingFirstReply(commandName: string) {
  const client = emulatorDynamoClient(emulators, 4);
  const attempts = loseFirstReply(client, commandName);
  return {
    lossyTable: new ItemTable(client, emulators.tableName),
    attempts,
    close: () => client.destroy(),
  };
}

/** A table whose every GetItem fails with `failure` (throttling unless said otherwise). */
function tableFailingReads(failure?: { name: string; status: number }) {
  const client = emulatorDynamoClient(emulators, 1);
  failReads(client, failure);
  return { blindTable: new ItemTable(client, emulators.tableName), close: () => client.destroy() };
}

describe('Function: conditionalPut', () => {
  it('writes the item with a fresh write id that the record leaves out', async () => {
    // Prepare
    const key = nextKey('put');

    // Act
    const result = await conditionalPut(table, {
      item: noteItem(key, { text: 'first', version: 1 }),
      ...keyIsFree,
      what: 'note',
    });

    // Assess
    expect(result).toMatchObject({ written: true });
    const stored = await table.get(key, 'note');
    expect(stored).toMatchObject({ text: 'first', version: 1, writeId: expect.any(String) });
    expect(result.written && result.item?.writeId).toBe(stored?.writeId);
  });

  it('recognises its own write when the SDK retries a put whose reply was lost', async () => {
    // Prepare
    const key = nextKey('lost-put');
    const { lossyTable, attempts, close } = tableLosingFirstReply('PutItemCommand');

    // Act
    const result = await conditionalPut(lossyTable, {
      item: noteItem(key, { text: 'landed', version: 1 }),
      ...keyIsFree,
      what: 'note',
    });
    close();

    // Assess: the retry failed on its own item, and the read-back knew it by its write id
    expect(attempts()).toBe(2);
    expect(result).toMatchObject({ written: true });
    expect(await table.get(key, 'note')).toMatchObject({ text: 'landed' });
  });

  it('is refused by a real conflict and returns the item that refused it', async () => {
    // Prepare
    const key = nextKey('conflict');
    await conditionalPut(table, {
      item: noteItem(key, { text: 'theirs', version: 1 }),
      ...keyIsFree,
      what: 'note',
    });

    // Act
    const result = await conditionalPut(table, {
      item: noteItem(key, { text: 'mine', version: 1 }),
      ...keyIsFree,
      what: 'note',
    });

    // Assess
    expect(result).toMatchObject({ written: false, stored: { text: 'theirs' } });
    expect(!result.written && result.cause).toMatchObject({
      name: 'ConditionalCheckFailedException',
    });
  });

  it('does not take an identical item written by another call for its own', async () => {
    // Prepare
    const key = nextKey('identical');
    const item = noteItem(key, { text: 'same', version: 1 });
    await conditionalPut(table, { item, ...keyIsFree, what: 'note' });

    // Act
    const result = await conditionalPut(table, { item, ...keyIsFree, what: 'note' });

    // Assess: only the write id tells a retry from a second writer
    expect(result.written).toBe(false);
  });

  it('reports a missing item as refused with nothing stored', async () => {
    // Prepare
    const key = nextKey('missing');

    // Act
    const result = await conditionalPut(table, {
      item: noteItem(key, { text: 'update', version: 2 }),
      condition: 'attribute_exists(#pk)',
      names: { '#pk': 'pk' },
      what: 'note',
    });

    // Assess
    expect(result).toMatchObject({ written: false, stored: undefined });
    expect(await table.get(key, 'note')).toBeUndefined();
  });

  it('throws a TransientError when the read-back fails transiently, unreadable otherwise', async () => {
    // Prepare
    const key = nextKey('unreadable');
    const item = noteItem(key, { text: 'theirs', version: 1 });
    await conditionalPut(table, { item, ...keyIsFree, what: 'note' });
    const throttled = tableFailingReads();
    const invalid = tableFailingReads({ name: 'ValidationException', status: 400 });

    // Act
    const transient = await conditionalPut(throttled.blindTable, {
      item,
      ...keyIsFree,
      what: 'note',
    }).catch((error: unknown) => error);
    const other = await conditionalPut(invalid.blindTable, { item, ...keyIsFree, what: 'note' });

    // Assess: whether the write was ours is unknown, so a retry must decide
    expect(transient).toBeInstanceOf(TransientError);
    expect(transient).toMatchObject({
      message: expect.stringMatching(/^note: a conditional write failed, and reading/),
    });
    expect(other).toMatchObject({ written: false, unreadable: true });
    throttled.close();
    invalid.close();
  });
});

describe('Function: conditionalUpdate', () => {
  /** Sets the text if the version is still 1, moving it to 2. */
  function bumpIfFirst(key: Item, text: string) {
    return {
      key,
      assignments: '#text = :text, #version = #version + :one',
      condition: '#version = :first',
      names: { '#text': 'text', '#version': 'version' },
      values: { ':text': text, ':one': 1, ':first': 1 },
      what: 'note',
    };
  }

  it('returns the item as it now is, and recognises its own write after a lost reply', async () => {
    // Prepare
    const key = nextKey('update');
    await conditionalPut(table, {
      item: noteItem(key, { text: 'planned', version: 1 }),
      ...keyIsFree,
      what: 'note',
    });
    const { lossyTable, attempts, close } = tableLosingFirstReply('UpdateItemCommand');

    // Act
    const result = await conditionalUpdate(lossyTable, bumpIfFirst(key, 'claimed'));
    close();

    // Assess
    expect(attempts()).toBe(2);
    expect(result).toMatchObject({ written: true, item: { text: 'claimed', version: 2 } });
  });

  it('is refused once another update moved the item on, and for a missing item', async () => {
    // Prepare
    const key = nextKey('update-race');
    await conditionalPut(table, {
      item: noteItem(key, { text: 'planned', version: 1 }),
      ...keyIsFree,
      what: 'note',
    });
    await conditionalUpdate(table, bumpIfFirst(key, 'first'));

    // Act
    const second = await conditionalUpdate(table, bumpIfFirst(key, 'second'));
    const missing = await conditionalUpdate(table, bumpIfFirst(nextKey('nowhere'), 'x'));

    // Assess
    expect(second).toMatchObject({ written: false, stored: { text: 'first', version: 2 } });
    expect(missing).toMatchObject({ written: false, stored: undefined });
  });
});

describe('Function: createItem', () => {
  it('throws what the caller makes of a taken key, and succeeds on its own lost reply', async () => {
    // Prepare
    const taken = nextKey('taken');
    const fresh = nextKey('fresh');
    await conditionalPut(table, {
      item: noteItem(taken, { text: 'theirs', version: 1 }),
      ...keyIsFree,
      what: 'note',
    });
    const { lossyTable, close } = tableLosingFirstReply('PutItemCommand');

    // Act
    const refused = await createItem(
      table,
      noteItem(taken, { text: 'mine', version: 1 }),
      'note',
      (cause) => new VersionConflictError('note exists', { cause }),
    ).catch((error: unknown) => error);
    await createItem(
      lossyTable,
      noteItem(fresh, { text: 'mine', version: 1 }),
      'note',
      () => new VersionConflictError('an own retry taken for a conflict'),
    );
    close();

    // Assess
    expect(refused).toBeInstanceOf(VersionConflictError);
    expect(refused).toMatchObject({ message: 'note exists' });
    expect(await table.get(fresh, 'note')).toMatchObject({ text: 'mine' });
  });
});

describe('Function: saveVersioned', () => {
  const describeNote = (key: Item) => ({
    label: 'note record',
    item: (next: Note) => noteItem(key, next),
    what: () => `note ${String(key.pk)}`,
  });

  async function stored(key: Item, note: Note): Promise<void> {
    await conditionalPut(table, { item: noteItem(key, note), ...keyIsFree, what: 'note' });
  }

  it('saves at the next version, and recognises its own save after a lost reply', async () => {
    // Prepare
    const key = nextKey('save');
    await stored(key, { text: 'v1', version: 1 });
    const { lossyTable, attempts, close } = tableLosingFirstReply('PutItemCommand');

    // Act
    const saved = await saveVersioned(
      lossyTable,
      NoteSchema,
      { text: 'v2', version: 1 },
      1,
      describeNote(key),
    );
    close();

    // Assess
    expect(attempts()).toBe(2);
    expect(saved).toEqual({ text: 'v2', version: 2 });
    expect(await table.get(key, 'note')).toMatchObject({ text: 'v2', version: 2 });
  });

  it('names both versions in a real conflict, and a missing item as not found', async () => {
    // Prepare
    const key = nextKey('save-conflict');
    await stored(key, { text: 'v3', version: 3 });

    // Act
    const stale = saveVersioned(
      table,
      NoteSchema,
      { text: 'late', version: 1 },
      1,
      describeNote(key),
    );
    const missing = nextKey('save-missing');
    const nowhere = saveVersioned(
      table,
      NoteSchema,
      { text: 'x', version: 1 },
      1,
      describeNote(missing),
    );

    // Assess
    await expect(stale).rejects.toThrow(VersionConflictError);
    await expect(stale).rejects.toThrow(
      `note ${String(key.pk)} was not saved: expected version 1, but the stored version is 3`,
    );
    await expect(nowhere).rejects.toThrow(NotFoundError);
  });

  it('keeps the conflict when the item read back does not parse, and refuses a bad version', async () => {
    // Prepare: an item whose version is not a number
    const key = nextKey('save-corrupt');
    await conditionalPut(table, {
      item: { ...key, text: 'odd', version: 'two' },
      ...keyIsFree,
      what: 'note',
    });

    const save = (expectedVersion: number) =>
      saveVersioned(
        table,
        NoteSchema,
        { text: 'x', version: 1 },
        expectedVersion,
        describeNote(key),
      )
        .then(() => undefined)
        .catch((error: unknown) => error);

    // Act
    const corrupt = await save(1);
    const badVersion = await save(0);

    // Assess
    expect(corrupt).toBeInstanceOf(VersionConflictError);
    expect(corrupt).toMatchObject({
      message: expect.stringMatching(/the item could not be read to say more/),
    });
    expect(badVersion).toBeInstanceOf(InvalidInputError);
  });
});
