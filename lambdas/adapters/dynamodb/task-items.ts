/**
 * The task items of a run: written together when the run is created, then saved one at a
 * time with optimistic locking (docs/data-model.md, "Creating a run: order").
 */
import { InvalidInputError } from '../../core/errors.js';
import { type RunRecord } from '../../core/schemas/run.js';
import { TaskRecordSchema, type TaskRecord } from '../../core/schemas/task.js';
import { parseOrThrow } from '../../core/shared/validation.js';
import { saveVersioned } from './conditional-writes.js';
import type { ItemTable } from './item-table.js';
import { listRunRecords, runStoreKeys, taskItem } from './run-items.js';

export class TaskItems {
  readonly #table: ItemTable;

  constructor(table: ItemTable) {
    this.#table = table;
  }

  /**
   * Validates a new run's tasks against the run (its id, unique task ids, `storiesTotal`),
   * before anything is written.
   */
  parseForRun(run: RunRecord, tasks: readonly TaskRecord[]): TaskRecord[] {
    const records = tasks.map((task, index) =>
      parseOrThrow(TaskRecordSchema, task, `task record [${index}]`),
    );
    checkTasksBelongToRun(run, records);
    return records;
  }

  /**
   * Unconditional puts of version 1, in batches: only the run's own create, before the run
   * item exists, writes them, so a retry of it writes the same tasks again, harmlessly.
   */
  async putAll(run: RunRecord, tasks: readonly TaskRecord[]): Promise<void> {
    await this.#table.batchPut(tasks.map(taskItem), `tasks of run ${run.runId}`);
  }

  async list(runId: string): Promise<TaskRecord[]> {
    // The sort key already orders by priority, then task id.
    return listRunRecords(
      this.#table,
      runId,
      runStoreKeys.taskPrefix,
      TaskRecordSchema,
      'task record',
    );
  }

  /** The priority is part of the key: saving a task with a changed priority finds no item. */
  async save(task: TaskRecord, expectedVersion: number): Promise<TaskRecord> {
    return saveVersioned(this.#table, TaskRecordSchema, task, expectedVersion, {
      label: 'task record',
      item: taskItem,
      what: (next) => `task ${next.taskId} (priority ${next.priority}) of run ${next.runId}`,
    });
  }
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
