/**
 * The stores of an integration test file: dynalite and s3rver started once for the file,
 * our real adapters on them, and everything closed after it. Tests share the table and
 * bucket, so each uses run ids of its own.
 */
import { capturedMetrics } from './metrics.js';
import { minisearchRetriever } from '../../lambdas/adapters/minisearch-retriever.js';
import type { LoopDeps } from '../../lambdas/core/steps/deps.js';
import type { Clock } from '../../lambdas/ports.js';
import { templates } from './templates.js';
import { afterAll, beforeAll } from 'vitest';
import type { S3Client } from '@aws-sdk/client-s3';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  createDynamoDocumentClient,
  createS3Client,
  type AwsClientOptions,
} from '../../lambdas/adapters/aws-clients.js';
import { DynamoRunStore } from '../../lambdas/adapters/dynamodb/run-store.js';
import { S3ArtefactStore } from '../../lambdas/adapters/s3.js';
import { learningStoreFor } from '../../lambdas/adapters/dynamodb/learning-store.js';
import type { LearningStore } from '../../lambdas/learning-ports.js';
import { startEmulators, type Emulators } from '../../local/emulators.js';

export interface EmulatorStores {
  emulators: Emulators;
  /** The clients the stores use, for a test that reads or writes behind them. */
  dynamo: DynamoDBDocumentClient;
  s3: S3Client;
  runs: DynamoRunStore;
  artefacts: S3ArtefactStore;
  /** Hints, rules and the registry on the same table and bucket. */
  learning: LearningStore;
  /** The table's endpoint and credentials, for a client of a test's own (a concurrent writer). */
  dynamoConnection: AwsClientOptions;
}

/**
 * Registers the file's beforeAll / afterAll; `ready` receives the stores once they run.
 *
 * @example
 * let runs: DynamoRunStore;
 * useEmulatorStores((stores) => ({ runs } = stores));
 */
export function useEmulatorStores(ready: (stores: EmulatorStores) => void): void {
  let emulators: Emulators | undefined;
  let dynamo: DynamoDBDocumentClient | undefined;
  let s3: S3Client | undefined;
  beforeAll(async () => {
    emulators = await startEmulators();
    const dynamoConnection = {
      endpoint: emulators.dynamoEndpoint,
      region: emulators.region,
      credentials: emulators.credentials,
    };
    dynamo = createDynamoDocumentClient(dynamoConnection);
    s3 = createS3Client({ ...dynamoConnection, endpoint: emulators.s3Endpoint });
    const artefacts = new S3ArtefactStore({ client: s3, bucket: emulators.bucketName });
    ready({
      emulators,
      dynamo,
      s3,
      runs: new DynamoRunStore({ client: dynamo, tableName: emulators.tableName }),
      artefacts,
      learning: learningStoreFor({ client: dynamo, tableName: emulators.tableName, artefacts }),
      dynamoConnection,
    });
  });
  afterAll(async () => {
    dynamo?.destroy();
    s3?.destroy();
    await emulators?.stop();
  });
}

/**
 * Client options whose endpoint nothing listens on (port 1), with the emulator's region
 * and credentials and a short retry, for a test of what an unreachable store throws.
 */
export function unreachableConnection(emulators: Emulators): AwsClientOptions {
  return {
    endpoint: 'http://127.0.0.1:1',
    region: emulators.region,
    credentials: emulators.credentials,
    maxAttempts: 2,
  };
}

/** The loop steps' ports over a test file's stores, with the shipped templates and retriever. */
export function loopDepsOver(stores: EmulatorStores, clock: Clock): LoopDeps {
  return {
    runs: stores.runs,
    artefacts: stores.artefacts,
    clock,
    templates,
    learning: stores.learning,
    retrievers: minisearchRetriever,
    metrics: capturedMetrics().sink,
  };
}
