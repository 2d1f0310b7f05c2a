/**
 * The iteration items of a run: created once (a second create loses the claim), saved
 * with optimistic locking, and claimed by the runner in one conditional update
 * (docs/data-model.md, "Optimistic locking").
 */
import { IterationClaimedError, NotFoundError, RalphError } from '../../core/errors.js';
import { IterationRecordSchema, type IterationRecord } from '../../core/schemas/iteration.js';
import { parseOrThrow } from '../../core/shared/validation.js';
import { conditionalUpdate, createItem, saveVersioned } from './conditional-writes.js';
import type { ItemTable } from './item-table.js';
import { iterationItem, iterationKey, listRunRecords, runStoreKeys } from './run-items.js';
import { parseStoredItem } from './stored-items.js';

export class IterationItems {
  readonly #table: ItemTable;

  constructor(table: ItemTable) {
    this.#table = table;
  }

  async create(iteration: IterationRecord): Promise<void> {
    const record = parseOrThrow(IterationRecordSchema, iteration, 'iteration record');
    await createItem(
      this.#table,
      iterationItem(record),
      describe(record.runId, record.iteration),
      (cause) => new IterationClaimedError(record.runId, record.iteration, { cause }),
    );
  }

  async get(runId: string, iteration: number): Promise<IterationRecord | undefined> {
    const what = describe(runId, iteration);
    const item = await this.#table.get(iterationKey(runId, iteration), what);
    return item === undefined ? undefined : parseStoredItem(IterationRecordSchema, item, what);
  }

  /** In iteration order: the padded sort key sorts numerically. */
  async list(runId: string): Promise<IterationRecord[]> {
    const prefix = runStoreKeys.iterationPrefix;
    return listRunRecords(this.#table, runId, prefix, IterationRecordSchema, 'iteration record');
  }

  async save(iteration: IterationRecord, expectedVersion: number): Promise<IterationRecord> {
    return saveVersioned(this.#table, IterationRecordSchema, iteration, expectedVersion, {
      label: 'iteration record',
      item: iterationItem,
      what: (next) => describe(next.runId, next.iteration),
    });
  }

  /**
   * planned → running in one conditional UpdateItem, so a runner claims without reading
   * the record first. The condition is the status itself: of two runners only one sees
   * `planned`. The version still moves on, so a writer that read the record before the
   * claim conflicts. A refused claim whose item is missing is NotFoundError; one that is
   * not this call's own earlier attempt is IterationClaimedError.
   */
  async claim(runId: string, iteration: number, startedAt: string): Promise<IterationRecord> {
    const what = describe(runId, iteration);
    parseOrThrow(IterationRecordSchema.shape.startedAt, startedAt, `${what}: startedAt`);
    const result = await conditionalUpdate(this.#table, {
      key: iterationKey(runId, iteration),
      assignments: '#status = :running, #startedAt = :startedAt, #version = #version + :one',
      condition: '#status = :planned',
      names: { '#status': 'status', '#startedAt': 'startedAt', '#version': 'version' },
      values: { ':running': 'running', ':planned': 'planned', ':startedAt': startedAt, ':one': 1 },
      what,
    });
    if (!result.written) {
      if ('stored' in result && result.stored === undefined)
        throw new NotFoundError(`${what} does not exist`, { cause: result.cause });
      throw new IterationClaimedError(runId, iteration, { cause: result.cause });
    }
    if (result.item === undefined)
      throw new RalphError(`${what}: the claim returned no attributes`, { code: 'CORRUPT_RECORD' });
    return parseStoredItem(IterationRecordSchema, result.item, what);
  }
}

function describe(runId: string, iteration: number): string {
  return `iteration ${iteration} of run ${runId}`;
}
