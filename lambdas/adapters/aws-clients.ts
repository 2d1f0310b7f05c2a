/**
 * The one place AWS SDK clients are built. Every external call gets a connection timeout,
 * a request timeout that actually throws, and a bounded retry with backoff, so a stuck
 * dependency fails a Lambda step (which Step Functions can retry) instead of hanging it
 * until the Lambda timeout. The same factories point the clients at the local emulators
 * when given an `endpoint`.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { KMSClient } from '@aws-sdk/client-kms';
import { S3Client } from '@aws-sdk/client-s3';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SFNClient } from '@aws-sdk/client-sfn';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AwsCredentialIdentityProvider } from '@smithy/types';

/** Static credentials (the emulators'); leave them out in AWS to use the default chain. */
export interface StaticCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface AwsClientOptions {
  /** A custom endpoint such as a local emulator (`http://127.0.0.1:PORT`). */
  endpoint?: string;
  /** Defaults to the SDK's resolution (AWS_REGION in Lambda). */
  region?: string;
  /** Fixed keys, or a provider that renews them (the runner's run-scoped session). */
  credentials?: StaticCredentials | AwsCredentialIdentityProvider;
  /** Total attempts per call, the first included. @default 4 */
  maxAttempts?: number;
  /** `standard` backs off exponentially with jitter; `adaptive` also rate-limits the client. @default 'standard' */
  retryMode?: 'standard' | 'adaptive';
  /** Time allowed to open the TCP connection, per attempt. @default 3000 */
  connectionTimeoutMs?: number;
  /** Time allowed for one attempt's request and response. @default per client */
  requestTimeoutMs?: number;
}

export const DEFAULT_MAX_ATTEMPTS = 4;
const DEFAULT_CONNECTION_TIMEOUT_MS = 3_000;

/**
 * The options shared by every client. `requestHandler` is given as the NodeHttpHandler's
 * constructor options rather than an instance: the SDK builds the handler itself, so we do
 * not import `@smithy/node-http-handler`, which is not one of our declared dependencies.
 * `throwOnRequestTimeout` is required: without it the handler only logs a warning when
 * `requestTimeout` passes and keeps waiting.
 */
function baseConfig(options: AwsClientOptions, defaultRequestTimeoutMs: number) {
  return {
    ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
    ...(options.region === undefined ? {} : { region: options.region }),
    ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
    maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    retryMode: options.retryMode ?? 'standard',
    requestHandler: {
      connectionTimeout: options.connectionTimeoutMs ?? DEFAULT_CONNECTION_TIMEOUT_MS,
      requestTimeout: options.requestTimeoutMs ?? defaultRequestTimeoutMs,
      throwOnRequestTimeout: true,
    },
  };
}

/**
 * A DynamoDB document client that drops `undefined` attributes (optional record fields)
 * instead of refusing the write.
 *
 * @example
 * const client = createDynamoDocumentClient({ region: 'eu-west-1' });
 * const store = new DynamoRunStore({ client, tableName: 'ralph' });
 */
export function createDynamoDocumentClient(options: AwsClientOptions = {}): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(createDynamoClient(options), {
    marshallOptions: { removeUndefinedValues: true },
  });
}

/** A plain DynamoDB client, for libraries that send their own commands (Powertools Idempotency). */
export function createDynamoClient(options: AwsClientOptions = {}): DynamoDBClient {
  return new DynamoDBClient(baseConfig(options, 5_000));
}

/**
 * An S3 client. With a custom `endpoint` (s3rver) it uses path-style addressing and
 * computes checksums only where S3 requires them: the emulator neither resolves
 * `bucket.localhost` names nor understands the newer default checksum headers.
 *
 * @example
 * const client = createS3Client({ endpoint: emulators.s3Endpoint, credentials, region });
 */
export function createS3Client(options: AwsClientOptions = {}): S3Client {
  const emulator = options.endpoint !== undefined;
  return new S3Client({
    // Artefacts (transcripts, diffs) can be a few MiB: allow more time than a table call.
    ...baseConfig(options, 30_000),
    ...(emulator
      ? {
          forcePathStyle: true,
          requestChecksumCalculation: 'WHEN_REQUIRED' as const,
          responseChecksumValidation: 'WHEN_REQUIRED' as const,
        }
      : {}),
  });
}

/** A Secrets Manager client, for the model's API key. */
export function createSecretsClient(options: AwsClientOptions = {}): SecretsManagerClient {
  return new SecretsManagerClient(baseConfig(options, 5_000));
}

/** A Step Functions client, for starting run-loop executions. */
export function createSfnClient(options: AwsClientOptions = {}): SFNClient {
  return new SFNClient(baseConfig(options, 10_000));
}

/** A KMS client, for signing shared bundles and reading trusted publishers' public keys. */
export function createKmsClient(options: AwsClientOptions = {}): KMSClient {
  return new KMSClient(baseConfig(options, 5_000));
}

/** An EventBridge client, for announcing published bundles on the stack's default bus. */
export function createEventBridgeClient(options: AwsClientOptions = {}): EventBridgeClient {
  return new EventBridgeClient(baseConfig(options, 5_000));
}
