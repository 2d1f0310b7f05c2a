/**
 * The loop's ports in a deployed Lambda (table, bucket, clock, prompt templates), built once
 * per container from its environment. Apart from the evaluation's (environment.ts), so a
 * function that never calls a model bundles no model SDK.
 */
import { EmfMetricsSink } from '../adapters/emf-metrics.js';
import { ConfigurationError } from '../core/errors.js';
import { DynamoRunStore } from '../adapters/dynamodb/run-store.js';
import { learningStoreFor } from '../adapters/dynamodb/learning-store.js';
import { S3ArtefactStore } from '../adapters/s3.js';
import { createDynamoDocumentClient, createS3Client } from '../adapters/aws-clients.js';
import { systemClock } from '../adapters/clock.js';
import { promptTemplates } from '../adapters/prompt-template-files.js';
import type { LoopDeps } from '../core/steps/deps.js';
import { minisearchRetriever } from '../adapters/minisearch-retriever.js';

/** An environment variable the deployment must set. */
export function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new ConfigurationError(`environment variable ${name} is not set`);
  return value;
}

let cached: LoopDeps | undefined;

/**
 * The ports of a deployed Lambda, built once per container from its environment: the run
 * table and bucket, and on them hints, rules and the registry (the loop steps learn).
 */
export function depsFromEnvironment(): LoopDeps {
  if (cached) return cached;
  const client = createDynamoDocumentClient({});
  const tableName = required('TABLE_NAME');
  const artefacts = new S3ArtefactStore({
    client: createS3Client({}),
    bucket: required('BUCKET_NAME'),
  });
  cached = {
    runs: new DynamoRunStore({ client, tableName }),
    artefacts,
    clock: systemClock,
    templates: promptTemplates(),
    learning: learningStoreFor({ client, tableName, artefacts, clock: systemClock }),
    retrievers: minisearchRetriever,
    // EMF on stdout: the function's log carries it to CloudWatch Metrics.
    metrics: new EmfMetricsSink({
      service: process.env.POWERTOOLS_SERVICE_NAME ?? 'ralph-cloud',
      write: (line) => process.stdout.write(line),
    }),
  };
  return cached;
}
