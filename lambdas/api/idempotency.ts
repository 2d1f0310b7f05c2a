/**
 * `Idempotency-Key` on `POST /runs`, through Powertools Idempotency with the run table as its
 * store: a retried request with the same key (from the same caller) gets the first answer and
 * starts nothing; the same key with another body is `422`; a retry while the first is still
 * being handled is `409` (retry shortly). Records live on one partition of the table
 * (`IDEMPOTENCY#start-run`, the key's hash as sort key) and expire after a day (the
 * table's TTL attribute `expiration`).
 */
import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  IdempotencyValidationError,
  makeIdempotent,
} from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { RunStarted } from '../core/schemas/run-views.js';
import { TABLE_KEYS } from '../adapters/table-design.js';
import { HttpProblem } from './problem.js';
import { IDEMPOTENCY_PARTITION, IDEMPOTENCY_SECONDS } from './route-table.js';

/** Where idempotency records are kept: Powertools' persistence layer over our table. */
export type IdempotencyStore = DynamoDBPersistenceLayer;

export function idempotencyStore(client: DynamoDBClient, tableName: string): IdempotencyStore {
  return new DynamoDBPersistenceLayer({
    tableName,
    awsSdkV3Client: client,
    keyAttr: TABLE_KEYS.partitionKey,
    sortKeyAttr: TABLE_KEYS.sortKey,
    staticPkValue: IDEMPOTENCY_PARTITION,
  });
}

/** One start, as the idempotency layer sees it: who asked, with which key, what. */
export interface KeyedRequest<B> {
  caller: string;
  key: string;
  body: B;
}

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** The `Idempotency-Key` header, checked: 1–255 visible ASCII characters. */
export function idempotencyKeyOf(headers: Record<string, string | undefined>): string | undefined {
  const key = headers['idempotency-key'];
  if (key === undefined) return undefined;
  if (!KEY_PATTERN.test(key))
    throw new HttpProblem(
      400,
      'Idempotency-Key: expected 1 to 255 visible ASCII characters',
      'INVALID_IDEMPOTENCY_KEY',
    );
  return key;
}

/**
 * `start`, made to run once per (caller, key): the body is compared (as parsed JSON, key
 * order ignored) with the first request's, and a different one is refused.
 */
export function oncePerKey<B>(
  start: (body: B) => Promise<RunStarted>,
  store: IdempotencyStore,
): (request: KeyedRequest<B>) => Promise<RunStarted> {
  const once = makeIdempotent((request: KeyedRequest<B>) => start(request.body), {
    persistenceStore: store,
    keyPrefix: 'start-run',
    config: new IdempotencyConfig({
      eventKeyJmesPath: '[caller, key]',
      payloadValidationJmesPath: 'body',
      expiresAfterSeconds: IDEMPOTENCY_SECONDS,
      throwOnNoIdempotencyKey: true,
    }),
  });
  return async (request) => {
    try {
      return await once(request);
    } catch (error) {
      if (error instanceof IdempotencyValidationError)
        throw new HttpProblem(
          422,
          'this Idempotency-Key was used with another request body; use a new key for a new run',
          'IDEMPOTENCY_KEY_REUSED',
        );
      if (error instanceof IdempotencyAlreadyInProgressError)
        throw new HttpProblem(
          409,
          'a request with this Idempotency-Key is still being handled; retry shortly',
          'IDEMPOTENCY_IN_PROGRESS',
          { 'retry-after': '1' },
        );
      throw error;
    }
  };
}
