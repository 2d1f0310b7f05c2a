/**
 * FixPullRequests over the run table: one item per task of an investigate run, in the run's
 * partition (`RUN#<runId>` / `FIXPR#<taskId>`), so pruning the run (RunStore.deleteRun)
 * deletes it with the rest. Created conditionally (a retried step finds the first one),
 * then saved with optimistic locking, as every record on the table.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { FixPullRequestSchema, type FixPullRequest } from '../../core/schemas/investigation.js';
import type { FixPullRequests } from '../../ports.js';
import { TABLE_KEYS } from '../table-design.js';
import { createOrSave } from './conditional-writes.js';
import { ItemTable } from './item-table.js';
import { runStoreKeys } from './run-items.js';
import { dropUndefined, parseStoredItem, type Item } from './stored-items.js';

const LABEL = 'fix pull request record';

/**
 * @example
 * const records = new DynamoFixPullRequests({ client, tableName });
 * const saved = await records.save(pending, undefined); // VersionConflictError if it exists
 */
export class DynamoFixPullRequests implements FixPullRequests {
  readonly #table: ItemTable;

  constructor({
    client,
    tableName,
  }: {
    client: DynamoDBDocumentClient | DynamoDBClient;
    tableName: string;
  }) {
    this.#table = new ItemTable(client, tableName);
  }

  async get(runId: string, taskId: string): Promise<FixPullRequest | undefined> {
    const what = whatOf(runId, taskId);
    const item = await this.#table.get(fixPullRequestKey(runId, taskId), what);
    return item === undefined ? undefined : parseStoredItem(FixPullRequestSchema, item, what);
  }

  /** `expectedVersion` undefined creates version 1, refused (VersionConflictError) if one exists. */
  async save(record: FixPullRequest, expectedVersion: number | undefined): Promise<FixPullRequest> {
    return createOrSave(this.#table, FixPullRequestSchema, record, expectedVersion, {
      label: LABEL,
      item: fixPullRequestItem,
      what: (next) => whatOf(next.runId, next.taskId),
    });
  }
}

function fixPullRequestKey(runId: string, taskId: string): Item {
  return {
    [TABLE_KEYS.partitionKey]: runStoreKeys.runPk(runId),
    [TABLE_KEYS.sortKey]: runStoreKeys.fixPullRequestSk(taskId),
  };
}

function fixPullRequestItem(record: FixPullRequest): Item {
  return { ...dropUndefined(record), ...fixPullRequestKey(record.runId, record.taskId) };
}

function whatOf(runId: string, taskId: string): string {
  return `the pull request of task ${taskId} of run ${runId}`;
}
