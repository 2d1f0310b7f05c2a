/**
 * Where the hooks' records live on the single table (docs/data-model.md, "Error groups and
 * batches"): the key builders and the item each record is stored as.
 */
import type {
  ErrorGroup,
  ErrorGroupKey,
  InvestigationBatch,
} from '../../core/schemas/error-group.js';
import { TABLE_KEYS } from '../table-design.js';
import { dropUndefined, type Item } from './stored-items.js';

const { partitionKey: PK, sortKey: SK, gsi1 } = TABLE_KEYS;

/**
 * The table's TTL attribute (epoch seconds): DynamoDB deletes an item some time after it.
 * dynalite deletes nothing, so an item that expires also carries `expiresAt` and the writes
 * that reuse its key check that instead.
 */
export const TTL_ATTRIBUTE = 'expiration';

/** Unrouted groups have no project: their index partition uses a name no project id can take. */
const UNROUTED = '~unrouted';

/**
 * The key builders, exported so that docs/data-model.md, the tests and any repair script
 * name items exactly as the store does.
 */
export const incidentKeys = {
  deliveryPk: (replayKey: string) => `DELIVERY#${replayKey}`,
  deliverySk: 'DELIVERY',
  groupPk: (key: ErrorGroupKey) => `GROUP#${key.source}#${key.fingerprint}`,
  groupSk: 'GROUP',
  /** A project's groups (or the unrouted ones) in one index partition, by status. */
  groupsGsi1pk: (projectId: string | undefined) => `GROUPS#${projectId ?? UNROUTED}`,
  groupGsi1sk: (group: ErrorGroup) =>
    `${group.status}#${new Date(group.firstReceivedAt).toISOString()}#${group.source}#${group.fingerprint}`,
  projectPk: (projectId: string) => `PROJECT#${projectId}`,
  batchPrefix: 'BATCH#',
  batchSk: (batchId: string) => `BATCH#${batchId}`,
  /** Open batches only (the index is sparse): what a restarted scheduler picks up. */
  openBatchesGsi1pk: 'BATCHES#OPEN',
  openBatchGsi1sk: (batch: InvestigationBatch) =>
    `${new Date(batch.closesAt).toISOString()}#${batch.projectId}#${batch.batchId}`,
  runCountSk: (hour: string) => `RUNS#${hour}`,
} as const;

export function deliveryKey(replayKey: string): Item {
  return { [PK]: incidentKeys.deliveryPk(replayKey), [SK]: incidentKeys.deliverySk };
}

export function groupKey(key: ErrorGroupKey): Item {
  return { [PK]: incidentKeys.groupPk(key), [SK]: incidentKeys.groupSk };
}

export function groupItem(group: ErrorGroup): Item {
  return {
    ...dropUndefined(group),
    ...groupKey(group),
    [gsi1.partitionKey]: incidentKeys.groupsGsi1pk(group.projectId),
    [gsi1.sortKey]: incidentKeys.groupGsi1sk(group),
  };
}

export function batchKey(projectId: string, batchId: string): Item {
  return { [PK]: incidentKeys.projectPk(projectId), [SK]: incidentKeys.batchSk(batchId) };
}

/** A closed batch leaves the index of open ones (the whole item is written without it). */
export function batchItem(batch: InvestigationBatch): Item {
  return {
    ...dropUndefined(batch),
    ...batchKey(batch.projectId, batch.batchId),
    ...(batch.status === 'open'
      ? {
          [gsi1.partitionKey]: incidentKeys.openBatchesGsi1pk,
          [gsi1.sortKey]: incidentKeys.openBatchGsi1sk(batch),
        }
      : {}),
  };
}

export function runCountKey(projectId: string, hour: string): Item {
  return { [PK]: incidentKeys.projectPk(projectId), [SK]: incidentKeys.runCountSk(hour) };
}

/** Epoch seconds, the TTL attribute's unit. */
export const epochSeconds = (iso: string): number => Math.floor(Date.parse(iso) / 1000);
