import { DynamoRunStore } from '../adapters/dynamodb.js';
import { AnthropicModelClient } from '../adapters/anthropic.js';
import { DynamoS3PatternSetStore } from '../adapters/pattern-sets.js';
import { S3ArtefactStore } from '../adapters/s3.js';
import { SecretKeyModelClient } from '../adapters/secret-model-client.js';
import {
  createDynamoDocumentClient,
  createS3Client,
  createSecretsClient,
} from '../adapters/aws-clients.js';
import { systemClock } from '../adapters/clock.js';
import type { EvaluationDeps } from '../core/evaluation/loop/deps.js';
import type { LoopDeps } from '../core/loop/deps.js';
import type { ModelClient } from '../ports.js';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`environment variable ${name} is not set`);
  return value;
}

let cached: LoopDeps | undefined;
let cachedEvaluation: EvaluationDeps | undefined;

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

/**
 * The evaluation steps' ports: the loop's, the project's pattern sets, and the judge. The
 * API key comes from the secret named by ANTHROPIC_API_KEY_SECRET_ARN (the stack creates
 * it; `aws secretsmanager put-secret-value` fills it), or from ANTHROPIC_API_KEY.
 */
export function evaluationDepsFromEnvironment(): EvaluationDeps {
  if (!cachedEvaluation) {
    const loop = depsFromEnvironment();
    cachedEvaluation = {
      ...loop,
      patternSets: new DynamoS3PatternSetStore({
        client: createDynamoDocumentClient({}),
        tableName: required('TABLE_NAME'),
        artefacts: loop.artefacts,
        clock: loop.clock,
      }),
      ...modelFromEnvironment(),
    };
  }
  return cachedEvaluation;
}

function modelFromEnvironment(): { model?: ModelClient } {
  const apiKey = process.env.ANTHROPIC_API_KEY;
  if (apiKey) return { model: new AnthropicModelClient({ apiKey }) };
  const secretArn = process.env.ANTHROPIC_API_KEY_SECRET_ARN;
  if (secretArn) return { model: new SecretKeyModelClient(createSecretsClient({}), secretArn) };
  return {};
}
