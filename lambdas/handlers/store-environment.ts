/**
 * The loop's ports in a deployed Lambda (table, bucket, clock, prompt templates), built once
 * per container from its environment. Apart from the evaluation's (environment.ts), so a
 * function that never calls a model bundles no model SDK.
 */
import { ConfigurationError } from '../core/errors.js';
import { DynamoRunStore } from '../adapters/dynamodb/run-store.js';
import { learningStoreFor } from '../adapters/dynamodb/learning-store.js';
import { S3ArtefactStore } from '../adapters/s3.js';
import { createDynamoDocumentClient, createS3Client } from '../adapters/aws-clients.js';
import { systemClock } from '../adapters/clock.js';
import { promptTemplates } from '../adapters/prompt-template-files.js';
import type { LoopDeps } from '../core/steps/deps.js';
import type { LearningStore } from '../learning-ports.js';

/** An environment variable the deployment must set. */
export function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new ConfigurationError(`environment variable ${name} is not set`);
  return value;
}

let cached: LoopDeps | undefined;

/** The ports of a deployed Lambda, built once per container from its environment. */
export function depsFromEnvironment(): LoopDeps {
  cached ??= {
    runs: new DynamoRunStore({
      client: createDynamoDocumentClient({}),
      tableName: required('TABLE_NAME'),
    }),
    artefacts: new S3ArtefactStore({ client: createS3Client({}), bucket: required('BUCKET_NAME') }),
    clock: systemClock,
    templates: promptTemplates(),
  };
  return cached;
}

let learning: LearningStore | undefined;

/**
 * The learning store of a deployed Lambda, built once per container on the table and bucket
 * of {@link depsFromEnvironment} (hints, rules and the registry: the loop steps that learn).
 */
export function learningFromEnvironment(): LearningStore {
  const { artefacts, clock } = depsFromEnvironment();
  learning ??= learningStoreFor({
    client: createDynamoDocumentClient({}),
    tableName: required('TABLE_NAME'),
    artefacts,
    clock,
  });
  return learning;
}
