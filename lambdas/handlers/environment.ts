import { DynamoRunStore } from '../adapters/dynamodb.js';
import { S3ArtefactStore } from '../adapters/s3.js';
import { createDynamoDocumentClient, createS3Client } from '../adapters/aws-clients.js';
import { systemClock } from '../adapters/clock.js';
import type { LoopDeps } from '../core/loop/deps.js';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`environment variable ${name} is not set`);
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
  };
  return cached;
}
