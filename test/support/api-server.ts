import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request as httpRequest } from 'node:http';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll } from 'vitest';
import { createDynamoDocumentClient, createS3Client } from '../../lambdas/adapters/aws-clients.js';
import { signRequest } from '../../lambdas/adapters/sigv4.js';
import { RunViewSchema, type RunView } from '../../lambdas/core/schemas/run-views.js';
import { startApiServer, type ApiServer } from '../../local/api-server/api-server.js';
import type { LocalCredential } from '../../local/api-server/signature-check.js';
import type { HookRouteDeps } from '../../lambdas/api/routes/hooks.js';
import { localApiEntry } from '../../local/local-api.js';
import { localIntake, type LocalIntake } from '../../local/local-intake.js';
import { EMULATOR_CREDENTIALS, openLocalStack, type LocalStack } from '../../local/local-stack.js';

export interface ApiAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The body parsed as JSON (undefined when it is not). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever a route answers and assert on it; the routes' own schemas type the handlers
  json: any;
}

export interface CallOptions {
  body?: unknown;
  /** Sent as is instead of `JSON.stringify(body)`. */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
  /** Sign with this credential (the server's by default); `false` sends it unsigned. */
  credential?: LocalCredential | false;
  /** Sign this request instead of the one sent (another body, another route). */
  signAs?: { method?: string; path?: string; body?: string };
}

export interface ApiHarness {
  stack: LocalStack;
  url: string;
  credential: LocalCredential;
  region: string;
  /** One request through real HTTP; the path is sent exactly as given. */
  call(method: string, path: string, options?: CallOptions): Promise<ApiAnswer>;
  /** Everything stored: every table item's key and every object key, sorted. */
  stored(): Promise<string[]>;
  /** Waits until no execution of any stored run is going (their last writes landed). */
  idle(): Promise<void>;
  /** The hook routes' ports, when the server serves them (`useApiServer({ hooks })`). */
  hooks?: HookRouteDeps;
}

export interface ApiServerSetup {
  /**
   * Serve the hook routes too, as `ralph serve` does, with the senders' secrets in this
   * `hooks.json` (written to a data dir of the file's own, removed after it).
   */
  hooks?: Record<string, unknown>;
}

/** An in-memory local stack and `ralph serve`'s API server over it, for one test file. */
export function useApiServer(setup: ApiServerSetup = {}): () => ApiHarness {
  let stack: LocalStack | undefined;
  let server: ApiServer | undefined;
  let harness: ApiHarness | undefined;
  let intake: LocalIntake | undefined;
  let hooksDir: string | undefined;
  beforeAll(async () => {
    stack = await openLocalStack({ retryIntervalMs: 0, cancelPollMs: 100 });
    if (setup.hooks) {
      hooksDir = await mkdtemp(join(tmpdir(), 'ralph-hooks-'));
      await writeFile(join(hooksDir, 'hooks.json'), JSON.stringify(setup.hooks));
      intake = localIntake(stack, {
        dataDir: hooksDir,
        onCloseFailed: (_batch, error) => {
          throw error;
        },
      });
    }
    const credential = {
      accessKeyId: `RALPHTEST${randomBytes(4).toString('hex').toUpperCase()}`,
      secretAccessKey: randomBytes(24).toString('base64url'),
    };
    const { region } = stack.endpoints;
    server = await startApiServer({
      entry: localApiEntry(stack, undefined, intake?.deps),
      credential,
      region,
      throttle: { rate: 1000, burst: 1000 },
    });
    harness = {
      ...(intake ? { hooks: intake.deps } : {}),
      stack,
      url: server.url,
      credential,
      region,
      call: (method, path, options) => call(server!.url, region, credential, method, path, options),
      stored: () => stored(stack!),
      idle: async () => {
        const { runs } = await stack!.deps.runs.listRuns();
        await Promise.all(runs.map((run) => stack!.executions.waitForRun(run.runId)));
      },
    };
  });
  afterAll(async () => {
    await server?.close();
    await intake?.stop();
    await stack?.close();
    if (hooksDir) await rm(hooksDir, { recursive: true, force: true });
  });
  return () => {
    if (!harness) throw new Error('the API server is not up yet');
    return harness;
  };
}

async function call(
  base: string,
  region: string,
  serverCredential: LocalCredential,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<ApiAnswer> {
  const body =
    options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const headers: Record<string, string> = {
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    ...options.headers,
  };
  const credential = options.credential ?? serverCredential;
  const signed = credential
    ? await signRequest(
        {
          method: options.signAs?.method ?? method,
          url: new URL(options.signAs?.path ?? path, base),
          headers,
          ...(options.signAs?.body !== undefined
            ? { body: options.signAs.body }
            : body === undefined
              ? {}
              : { body }),
        },
        { credentials: credential, region },
      )
    : { ...headers, host: new URL(base).host };
  return send(base, method, path, signed, body);
}

/** node:http, not fetch: the path goes out exactly as written (`..` and all). */
function send(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string | Buffer | undefined,
): Promise<ApiAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const request = httpRequest({ hostname, port, method, path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({
          status: response.statusCode ?? 0,
          headers: Object.fromEntries(
            Object.entries(response.headers).map(([name, value]) => [name, String(value)]),
          ),
          text,
          json,
        });
      });
    });
    request.on('error', reject);
    request.end(body);
  });
}

async function stored(stack: LocalStack): Promise<string[]> {
  const { endpoints } = stack;
  const options = { region: endpoints.region, credentials: EMULATOR_CREDENTIALS };
  const dynamo = createDynamoDocumentClient({ ...options, endpoint: endpoints.dynamoEndpoint });
  const s3 = createS3Client({ ...options, endpoint: endpoints.s3Endpoint });
  const items = await dynamo.send(new ScanCommand({ TableName: endpoints.tableName }));
  const objects = await s3.send(new ListObjectsV2Command({ Bucket: endpoints.bucketName }));
  dynamo.destroy();
  s3.destroy();
  return [
    ...(items.Items ?? []).map((item) => `table ${String(item.pk)} ${String(item.sk)}`),
    ...(objects.Contents ?? []).map((object) => `s3 ${object.Key ?? ''}`),
  ].sort();
}

/** Polls `GET /runs/{id}` until the run is no longer running (404 while InitRun creates it). */
export async function runEnded(
  api: ApiHarness,
  runId: string,
  timeoutMs = 60_000,
): Promise<RunView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await api.call('GET', `/runs/${runId}`);
    if (answer.status === 200 && answer.json.run.status !== 'running')
      return RunViewSchema.parse(answer.json);
    if (Date.now() > deadline) throw new Error(`run ${runId} still running: ${answer.text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
