/**
 * IncidentStore over the single table (docs/data-model.md, "Error groups and batches").
 * Every write is one conditional single-item write, as the run store's are: groups and
 * batches are created with `attribute_not_exists(pk)` and saved on their version; a replay
 * key is put unless a live one is there; a project's hourly run count is one conditional
 * UpdateItem. Each carries a write id, so a write the SDK retried after a lost reply counts
 * as this call's own (conditional-writes.ts). No write needs a transaction.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { InvalidInputError } from '../../core/errors.js';
import {
  ErrorGroupSchema,
  InvestigationBatchSchema,
  type ErrorGroup,
  type ErrorGroupKey,
  type InvestigationBatch,
} from '../../core/schemas/error-group.js';
import type { ErrorGroupScope, IncidentStore } from '../../ports.js';
import { TABLE_KEYS } from '../table-design.js';
import { conditionalPut, conditionalUpdate, createOrSave } from './conditional-writes.js';
import {
  batchItem,
  batchKey,
  deliveryKey,
  epochSeconds,
  groupItem,
  groupKey,
  incidentKeys,
  runCountKey,
  TTL_ATTRIBUTE,
} from './incident-items.js';
import { ItemTable } from './item-table.js';
import { parseStoredItem } from './stored-items.js';

const { partitionKey: PK, sortKey: SK, gsi1 } = TABLE_KEYS;

/** How long an hour's run count is kept after the hour began: long enough to read it back. */
const RUN_COUNT_KEEP_SECONDS = 2 * 24 * 3600;
const HOUR = /^\d{4}-\d{2}-\d{2}T\d{2}$/;

export interface DynamoIncidentStoreOptions {
  client: DynamoDBDocumentClient | DynamoDBClient;
  tableName: string;
}

/**
 * @example
 * const incidents = new DynamoIncidentStore({ client: createDynamoDocumentClient(), tableName });
 * if (!(await incidents.rememberDelivery(key, { receivedAt, expiresAt }))) return 'duplicate';
 */
export class DynamoIncidentStore implements IncidentStore {
  readonly #table: ItemTable;

  constructor({ client, tableName }: DynamoIncidentStoreOptions) {
    this.#table = new ItemTable(client, tableName);
  }

  async rememberDelivery(
    replayKey: string,
    window: { receivedAt: string; expiresAt: string },
  ): Promise<boolean> {
    const expiresAt = new Date(window.expiresAt).toISOString();
    const result = await conditionalPut(this.#table, {
      item: {
        ...deliveryKey(replayKey),
        replayKey,
        receivedAt: new Date(window.receivedAt).toISOString(),
        expiresAt,
        [TTL_ATTRIBUTE]: epochSeconds(expiresAt),
      },
      // ISO instants in UTC compare as text in time order.
      condition: 'attribute_not_exists(#pk) OR #expiresAt < :now',
      names: { '#pk': PK, '#expiresAt': 'expiresAt' },
      values: { ':now': new Date(window.receivedAt).toISOString() },
      what: `delivery ${replayKey}`,
    });
    return result.written;
  }

  async forgetDelivery(replayKey: string): Promise<void> {
    await this.#table.delete(deliveryKey(replayKey), `delivery ${replayKey}`);
  }

  async getGroup(key: ErrorGroupKey): Promise<ErrorGroup | undefined> {
    const what = groupName(key);
    const item = await this.#table.get(groupKey(key), what);
    return item === undefined ? undefined : parseStoredItem(ErrorGroupSchema, item, what);
  }

  async saveGroup(group: ErrorGroup, expectedVersion: number | undefined): Promise<ErrorGroup> {
    return createOrSave(this.#table, ErrorGroupSchema, group, expectedVersion, {
      label: 'error group',
      item: groupItem,
      what: groupName,
    });
  }

  async listGroups(scope: ErrorGroupScope): Promise<ErrorGroup[]> {
    const projectId = 'projectId' in scope ? scope.projectId : undefined;
    const status = 'status' in scope ? scope.status : undefined;
    const items = await this.#table.query(
      {
        index: gsi1.indexName,
        keyCondition:
          status === undefined ? '#pk = :pk' : '#pk = :pk AND begins_with(#sk, :status)',
        names: { '#pk': gsi1.partitionKey, ...(status ? { '#sk': gsi1.sortKey } : {}) },
        values: {
          ':pk': incidentKeys.groupsGsi1pk(projectId),
          ...(status ? { ':status': `${status}#` } : {}),
        },
      },
      projectId === undefined ? 'the unrouted error groups' : `the error groups of ${projectId}`,
    );
    return items.map((item) => parseStoredItem(ErrorGroupSchema, item, 'error group'));
  }

  async latestBatch(projectId: string): Promise<InvestigationBatch | undefined> {
    const [item] = await this.#table.query(
      {
        keyCondition: '#pk = :pk AND begins_with(#sk, :prefix)',
        names: { '#pk': PK, '#sk': SK },
        values: { ':pk': incidentKeys.projectPk(projectId), ':prefix': incidentKeys.batchPrefix },
        descending: true,
        limit: 1,
      },
      `the latest batch of ${projectId}`,
    );
    return item === undefined
      ? undefined
      : parseStoredItem(InvestigationBatchSchema, item, 'investigation batch');
  }

  async getBatch(projectId: string, batchId: string): Promise<InvestigationBatch | undefined> {
    const what = `batch ${batchId} of ${projectId}`;
    const item = await this.#table.get(batchKey(projectId, batchId), what);
    return item === undefined ? undefined : parseStoredItem(InvestigationBatchSchema, item, what);
  }

  async saveBatch(
    batch: InvestigationBatch,
    expectedVersion: number | undefined,
  ): Promise<InvestigationBatch> {
    return createOrSave(this.#table, InvestigationBatchSchema, batch, expectedVersion, {
      label: 'investigation batch',
      item: batchItem,
      what: (next) => `batch ${next.batchId} of ${next.projectId}`,
    });
  }

  async listOpenBatches(): Promise<InvestigationBatch[]> {
    const items = await this.#table.query(
      {
        index: gsi1.indexName,
        keyCondition: '#pk = :pk',
        names: { '#pk': gsi1.partitionKey },
        values: { ':pk': incidentKeys.openBatchesGsi1pk },
      },
      'the open batches',
    );
    return items
      .map((item) => parseStoredItem(InvestigationBatchSchema, item, 'investigation batch'))
      .filter((batch) => batch.status === 'open');
  }

  async countRun(projectId: string, hour: string, limit: number): Promise<boolean> {
    if (!HOUR.test(hour) || !Number.isSafeInteger(limit) || limit < 1)
      throw new InvalidInputError('run count', [
        ...(HOUR.test(hour) ? [] : [`hour: "${hour}" is not YYYY-MM-DDTHH`]),
        ...(Number.isSafeInteger(limit) && limit >= 1 ? [] : [`limit: ${limit} is not positive`]),
      ]);
    const expiresAt = new Date(Date.parse(`${hour}:00:00Z`) + RUN_COUNT_KEEP_SECONDS * 1000);
    const result = await conditionalUpdate(this.#table, {
      key: runCountKey(projectId, hour),
      assignments:
        '#count = if_not_exists(#count, :zero) + :one, #projectId = :projectId, #hour = :hour, #expiresAt = :expiresAt, #ttl = :ttl',
      condition: 'attribute_not_exists(#count) OR #count < :limit',
      names: {
        '#count': 'count',
        '#projectId': 'projectId',
        '#hour': 'hour',
        '#expiresAt': 'expiresAt',
        '#ttl': TTL_ATTRIBUTE,
      },
      values: {
        ':zero': 0,
        ':one': 1,
        ':limit': limit,
        ':projectId': projectId,
        ':hour': hour,
        ':expiresAt': expiresAt.toISOString(),
        ':ttl': epochSeconds(expiresAt.toISOString()),
      },
      what: `the runs of ${projectId} in ${hour}`,
      notIdempotent: true,
    });
    return result.written;
  }
}

const groupName = (key: ErrorGroupKey) => `error group ${key.source} ${key.fingerprint}`;
