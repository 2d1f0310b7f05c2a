/**
 * The pointer naming a project's current pattern-set version. It moves by a conditional
 * put on the pointer the caller read (its version and its pointer version), or on there
 * being none, so a publish or rollback made from a stale read is refused.
 */
import { VersionConflictError } from '../../core/errors.js';
import {
  PatternSetPointerSchema,
  type PatternSetPointer,
} from '../../core/schemas/pattern-sets.js';
import { conditionalPut } from '../dynamodb/conditional-writes.js';
import type { ItemTable } from '../dynamodb/item-table.js';
import { parseStoredItem, recordOf } from '../dynamodb/stored-items.js';
import { TABLE_KEYS } from '../table-design.js';
import { patternSetKeys, projectKey } from './pattern-set-keys.js';

/** Where the pointer goes next, and what is left behind if it cannot move. */
export type PointerMove = Omit<PatternSetPointer, 'pointerVersion'> & {
  /** Ends the conflict's message: `the pointer was not moved`. */
  lost: string;
};

export class PatternSetPointers {
  readonly #table: ItemTable;

  constructor(table: ItemTable) {
    this.#table = table;
  }

  async read(projectId: string): Promise<PatternSetPointer | undefined> {
    const what = describePointerItem(projectId);
    const item = await this.#table.get(projectKey(projectId, patternSetKeys.pointerSk), what);
    return item === undefined ? undefined : parseStoredItem(PatternSetPointerSchema, item, what);
  }

  /**
   * Writes the next pointer, conditional on the pointer read (its version and pointer
   * version: a rollback and a publish in between would otherwise restore the same
   * version unnoticed), or on there being none.
   */
  async move(
    projectId: string,
    read: PatternSetPointer | undefined,
    next: PointerMove,
  ): Promise<PatternSetPointer> {
    const { lost, ...fields } = next;
    const pointer = PatternSetPointerSchema.parse({
      ...fields,
      pointerVersion: (read?.pointerVersion ?? 0) + 1,
    });
    const what = describePointerItem(projectId);
    const result = await conditionalPut(this.#table, {
      item: { ...pointer, ...projectKey(projectId, patternSetKeys.pointerSk) },
      ...(read === undefined
        ? { condition: 'attribute_not_exists(#pk)', names: { '#pk': TABLE_KEYS.partitionKey } }
        : {
            condition: '#version = :version AND #pointerVersion = :pointerVersion',
            names: { '#version': 'version', '#pointerVersion': 'pointerVersion' },
            values: { ':version': read.version, ':pointerVersion': read.pointerVersion },
          }),
      what,
    });
    if (result.written) return pointer;
    const stored =
      'stored' in result && result.stored !== undefined
        ? PatternSetPointerSchema.safeParse(recordOf(result.stored))
        : undefined;
    const now = stored?.success ? describePointer(stored.data) : 'it could not be read';
    throw new VersionConflictError(
      `${what} moved while the pattern set was being ${next.change === 'publish' ? 'published' : 'rolled back'}: expected ${describePointer(read)}, but now ${now}; ${lost}`,
      { cause: result.cause },
    );
  }
}

/**
 * Refuses a caller whose idea of the current version (`null`: none) is not the pointer's,
 * before anything is written.
 */
export function checkExpected(
  projectId: string,
  pointer: PatternSetPointer | undefined,
  expected: number | null,
  action: string,
): void {
  const current = pointer?.version ?? null;
  if (current !== expected)
    throw new VersionConflictError(
      `pattern set of project ${projectId} was not ${action}: expected current version ${expected ?? 'none'}, but the current version is ${current ?? 'none'}`,
    );
}

function describePointerItem(projectId: string): string {
  return `pattern-set pointer of project ${projectId}`;
}

function describePointer(pointer: PatternSetPointer | undefined): string {
  return pointer === undefined
    ? 'no pointer'
    : `version ${pointer.version} (pointer version ${pointer.pointerVersion})`;
}
