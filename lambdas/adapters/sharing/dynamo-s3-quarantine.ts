/**
 * The Quarantine of a deployed stack: the refused envelope written once, whole, to the
 * artefact bucket (`shared/quarantine/<digest>.dsse.json`, outside what the organisation
 * may read), then one item under `QUARANTINE` saying why, keyed by the envelope's digest.
 * The same envelope refused again (a redelivered event) leaves the first record as it is.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { z } from 'zod';
import { QuarantinedBundleSchema } from '../../core/schemas/sharing.js';
import { parseOrThrow } from '../../core/shared/validation.js';
import type { ArtefactStore } from '../../ports.js';
import type { Quarantine, QuarantinedBundle } from '../../sharing-ports.js';
import { TABLE_KEYS } from '../table-design.js';
import { ItemTable } from '../dynamodb/item-table.js';
import { parseStoredItem } from '../dynamodb/stored-items.js';
import { sharingKeys } from '../../core/shared/sharing-keys.js';

const QuarantineRecordSchema = QuarantinedBundleSchema.extend({
  /** Where the envelope is, in the bucket. */
  envelopeKey: z.string().min(1),
});

export interface DynamoS3QuarantineOptions {
  client: DynamoDBDocumentClient | DynamoDBClient;
  tableName: string;
  /** The artefact bucket's store (write-once puts). */
  artefacts: ArtefactStore;
}

/**
 * @example
 * const quarantine = new DynamoS3Quarantine({ client, tableName, artefacts });
 * await quarantine.put({ digest, origin, reason: 'bad_signature', detail, at }, bytes);
 */
export class DynamoS3Quarantine implements Quarantine {
  readonly #table: ItemTable;
  readonly #artefacts: ArtefactStore;

  constructor({ client, tableName, artefacts }: DynamoS3QuarantineOptions) {
    this.#table = new ItemTable(client, tableName);
    this.#artefacts = artefacts;
  }

  /** The envelope first, so that a record never points at nothing. */
  async put(bundle: QuarantinedBundle, envelopeBytes: Uint8Array): Promise<void> {
    const envelopeKey = sharingKeys.quarantined(bundle.digest);
    const record = parseOrThrow(
      QuarantineRecordSchema,
      { ...bundle, envelopeKey },
      'quarantined bundle',
    );
    await this.#artefacts.put(envelopeKey, envelopeBytes, 'application/json');
    // Refused: this digest is quarantined already; the first record stands.
    await this.#table.putIf(
      {
        item: {
          [TABLE_KEYS.partitionKey]: sharingKeys.quarantinePk,
          [TABLE_KEYS.sortKey]: sharingKeys.quarantineSk(bundle.digest),
          ...record,
        },
        condition: 'attribute_not_exists(#pk)',
        names: { '#pk': TABLE_KEYS.partitionKey },
      },
      `quarantine record of bundle ${bundle.digest}`,
    );
  }

  /** Oldest first. */
  async list(): Promise<QuarantinedBundle[]> {
    const items = await this.#table.query(
      {
        keyCondition: '#pk = :pk',
        names: { '#pk': TABLE_KEYS.partitionKey },
        values: { ':pk': sharingKeys.quarantinePk },
      },
      'quarantine records',
    );
    return items
      .map((item) => parseStoredItem(QuarantineRecordSchema, item, 'quarantine record'))
      .map(({ digest, origin, reason, detail, at }) => ({ digest, origin, reason, detail, at }))
      .sort((a, b) => a.at.localeCompare(b.at));
  }
}
