/**
 * Where a run's records live on the single table (docs/data-model.md, "Items"): the key
 * builders, the item each record is stored as, and the query for a run's records.
 */
import type { z } from 'zod';
import { InvalidInputError } from '../../core/errors.js';
import type { RunRecord } from '../../core/schemas/run.js';
import type { IterationRecord } from '../../core/schemas/iteration.js';
import type { TaskRecord } from '../../core/schemas/task.js';
import { TABLE_KEYS } from '../table-design.js';
import type { ItemTable } from './item-table.js';
import { dropUndefined, parseStoredItem, type Item } from './stored-items.js';

const { partitionKey: PK, sortKey: SK, gsi1 } = TABLE_KEYS;

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
  /** An investigate run's pull request (or analysis comment) of one task. */
  fixPullRequestSk: (taskId: string) => `FIXPR#${taskId}`,
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

/** The run item: listed through `gsi1`, newest first. */
export function runItem(run: RunRecord): Item {
  return {
    ...dropUndefined(run),
    ...runKey(run.runId),
    [gsi1.partitionKey]: runStoreKeys.runsGsi1pk,
    [gsi1.sortKey]: runStoreKeys.runGsi1sk(run.createdAt, run.runId),
  };
}

export function runKey(runId: string): Item {
  return { [PK]: runStoreKeys.runPk(runId), [SK]: runStoreKeys.runSk };
}

export function iterationItem(iteration: IterationRecord): Item {
  return { ...dropUndefined(iteration), ...iterationKey(iteration.runId, iteration.iteration) };
}

export function iterationKey(runId: string, iteration: number): Item {
  return { [PK]: runStoreKeys.runPk(runId), [SK]: runStoreKeys.iterationSk(iteration) };
}

/** The priority is part of the key: a task saved with a changed priority is another item. */
export function taskItem(task: TaskRecord): Item {
  return {
    ...dropUndefined(task),
    [PK]: runStoreKeys.runPk(task.runId),
    [SK]: runStoreKeys.taskSk(task.priority, task.taskId),
  };
}

/**
 * Every record of a run whose sort key starts with `prefix`, in sort-key order (all
 * pages), each parsed with `schema`.
 */
export async function listRunRecords<S extends z.ZodType>(
  table: ItemTable,
  runId: string,
  prefix: string,
  schema: S,
  label: string,
): Promise<z.output<S>[]> {
  const items = await table.query(
    {
      keyCondition: '#pk = :pk AND begins_with(#sk, :prefix)',
      names: { '#pk': PK, '#sk': SK },
      values: { ':pk': runStoreKeys.runPk(runId), ':prefix': prefix },
    },
    `${prefix} items of run ${runId}`,
  );
  return items.map((item) => parseStoredItem(schema, item, label));
}
