/**
 * The local storage: dynalite (DynamoDB on LevelDB) and s3rver (S3 on the file system),
 * each on a free loopback port, with the table and bucket the adapters expect. With a
 * `dataDir`, data lives under `<dataDir>/dynamodb` and `<dataDir>/s3` and survives a
 * restart; without one, DynamoDB is in memory and S3 uses a temporary directory that
 * `stop()` removes.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  type TableDescription,
} from '@aws-sdk/client-dynamodb';
import { RalphError } from '../lambdas/core/errors.js';
import { TABLE_KEYS } from '../lambdas/adapters/table-design.js';
import type { StaticCredentials } from '../lambdas/adapters/aws-clients.js';
import { levelDetail, LocalStoreDamagedError, LocalStoreInUseError } from './store-errors.js';

export interface EmulatorOptions {
  /** Where data lives; `undefined` keeps DynamoDB in memory and S3 in a temporary directory. */
  dataDir?: string;
  /** @default 'ralph' */
  tableName?: string;
  /** @default 'ralph-artefacts' */
  bucketName?: string;
}

export interface Emulators {
  dynamoEndpoint: string;
  s3Endpoint: string;
  tableName: string;
  bucketName: string;
  /** s3rver accepts only these; dynalite accepts any, so both use them. */
  credentials: StaticCredentials;
  region: string;
  /** Closes both servers and their connections; safe to call twice. */
  stop(): Promise<void>;
}

export const EMULATOR_CREDENTIALS: StaticCredentials = {
  accessKeyId: 'S3RVER',
  secretAccessKey: 'S3RVER',
};
export const EMULATOR_REGION = 'us-east-1';
const LOOPBACK = '127.0.0.1';
const TABLE_READY_TIMEOUT_MS = 10_000;

// Neither package ships type declarations; these are the parts we use.
type DynaliteFactory = (options: {
  path?: string;
  createTableMs?: number;
  deleteTableMs?: number;
  updateTableMs?: number;
}) => Server;
interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer?: Server;
  /** Koa's middleware stack (s3rver is a Koa app); composed when `run` starts serving. */
  middleware: KoaMiddleware[];
  store: { existsObject(bucket: string, key: string): Promise<boolean> };
}
interface KoaContext {
  method: string;
  path: string;
  get(header: string): string;
  status: number;
  type: string;
  body: unknown;
}
type KoaMiddleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;
type S3rverConstructor = new (options: {
  port: number;
  address: string;
  directory: string;
  silent: boolean;
  configureBuckets: { name: string }[];
}) => S3rverInstance;
interface LevelDatabase {
  open(): Promise<void>;
  close(): Promise<void>;
}
type LevelConstructor = new (path: string) => LevelDatabase;

/**
 * @example
 * const emulators = await startEmulators({ dataDir: '.ralph' });
 * const client = createDynamoDocumentClient({ endpoint: emulators.dynamoEndpoint, ...emulators });
 * // ...
 * await emulators.stop();
 */
export async function startEmulators(options: EmulatorOptions = {}): Promise<Emulators> {
  const tableName = options.tableName ?? 'ralph';
  const bucketName = options.bucketName ?? 'ralph-artefacts';
  checkNames(tableName, bucketName);

  const dataDir = options.dataDir === undefined ? undefined : resolve(options.dataDir);
  const dynamoDir = dataDir === undefined ? undefined : join(dataDir, 'dynamodb');
  const s3Dir = dataDir === undefined ? undefined : join(dataDir, 's3');
  if (dynamoDir !== undefined && s3Dir !== undefined) {
    await mkdir(dynamoDir, { recursive: true });
    await mkdir(s3Dir, { recursive: true });
    await assertStoreFree(dynamoDir, dataDir ?? dynamoDir);
  }

  const stack: (() => Promise<void>)[] = [];
  const closeAll = async () => {
    const errors: unknown[] = [];
    for (const close of stack.reverse()) {
      try {
        await close();
      } catch (error) {
        errors.push(error);
      }
    }
    stack.length = 0;
    if (errors.length > 0) throw new AggregateError(errors, 'stopping the local emulators failed');
  };

  try {
    const { dynalite, S3rver } = loadEmulatorPackages();

    const dynamo = dynalite({
      ...(dynamoDir === undefined ? {} : { path: dynamoDir }),
      createTableMs: 0,
      deleteTableMs: 0,
      updateTableMs: 0,
    });
    await listen(dynamo);
    stack.push(() => closeServer(dynamo));
    const dynamoEndpoint = `http://${LOOPBACK}:${(dynamo.address() as AddressInfo).port}`;

    let directory = s3Dir;
    if (directory === undefined) {
      const temporary = await mkdtemp(join(tmpdir(), 'ralph-s3-'));
      stack.push(() => rm(temporary, { recursive: true, force: true }));
      directory = temporary;
    }
    // configureBuckets creates the bucket at start-up unless it is already on disk.
    const s3 = new S3rver({
      port: 0,
      address: LOOPBACK,
      directory,
      silent: true,
      configureBuckets: [{ name: bucketName }],
    });
    s3.middleware.unshift(refuseOverwrites(s3.store));
    const s3Address = await s3.run();
    stack.push(async () => {
      const closing = s3.close();
      s3.httpServer?.closeAllConnections();
      await closing;
    });
    const s3Endpoint = `http://${LOOPBACK}:${s3Address.port}`;

    await ensureTable(dynamoEndpoint, tableName);

    let stopping: Promise<void> | undefined;
    return {
      dynamoEndpoint,
      s3Endpoint,
      tableName,
      bucketName,
      credentials: { ...EMULATOR_CREDENTIALS },
      region: EMULATOR_REGION,
      stop: () => (stopping ??= closeAll()),
    };
  } catch (error) {
    await closeAll().catch(() => undefined);
    throw error;
  }
}

/**
 * s3rver ignores `If-None-Match`; real S3 answers 412 when the header is `*` and the key
 * exists. This teaches s3rver the same, so the adapter's write-once path is the cloud's
 * (one conditional PutObject) rather than a check-then-put of its own. Requests are served
 * one at a time per key in practice here; a put racing between this check and s3rver's
 * write could still land, which real S3 rules out.
 */
function refuseOverwrites(store: S3rverInstance['store']): KoaMiddleware {
  return async (ctx, next) => {
    if (ctx.method === 'PUT' && ctx.get('if-none-match').trim() === '*') {
      const [bucket, ...key] = ctx.path.replace(/^\//, '').split('/');
      if (
        bucket &&
        key.length > 0 &&
        (await store.existsObject(bucket, decodeURIComponent(key.join('/'))))
      ) {
        ctx.status = 412;
        ctx.type = 'application/xml';
        ctx.body =
          '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>PreconditionFailed</Code>' +
          '<Message>At least one of the pre-conditions you specified did not hold</Message>' +
          '<Condition>If-None-Match</Condition></Error>';
        return;
      }
    }
    await next();
  };
}

function loadEmulatorPackages(): { dynalite: DynaliteFactory; S3rver: S3rverConstructor } {
  const require = createRequire(import.meta.url);
  return {
    dynalite: require('dynalite') as DynaliteFactory,
    S3rver: require('s3rver') as S3rverConstructor,
  };
}

/**
 * LevelDB allows one open handle per directory. dynalite opens it lazily and, when the lock
 * is taken, crashes the process on its first request with "Database is not open". So we
 * try the lock first, with the same `level` package dynalite uses, and say what is wrong.
 * The probe closes before dynalite opens: a process that starts in that instant still
 * wins the race, which needs two ralph starts within milliseconds on the same directory.
 */
async function assertStoreFree(dynamoDir: string, dataDir: string): Promise<void> {
  const requireFromDynalite = createRequire(createRequire(import.meta.url).resolve('dynalite'));
  const { Level } = requireFromDynalite('level') as { Level: LevelConstructor };
  const probe = new Level(dynamoDir);
  try {
    await probe.open();
  } catch (error) {
    const code =
      (error as { cause?: { code?: unknown } }).cause?.code ?? (error as { code?: unknown }).code;
    if (code === 'LEVEL_LOCKED') throw new LocalStoreInUseError(dataDir, { cause: error });
    throw new LocalStoreDamagedError(dataDir, levelDetail(error), { cause: error });
  }
  await probe.close();
}

function listen(server: Server): Promise<void> {
  return new Promise((resolveListen, rejectListen) => {
    server.once('error', rejectListen);
    server.listen(0, LOOPBACK, () => {
      server.off('error', rejectListen);
      resolveListen();
    });
  });
}

/** Closes the server (dynalite's close also closes its LevelDB) and drops open sockets. */
function closeServer(server: Server): Promise<void> {
  return new Promise((resolveClose, rejectClose) => {
    server.close((error) => (error ? rejectClose(error) : resolveClose()));
    // Keep-alive sockets of SDK clients would otherwise hold close() open.
    server.closeAllConnections();
  });
}

/**
 * Creates the table with the key design of table-design.ts when it is missing, and checks
 * that an existing one (from an earlier start on the same dataDir) has that design.
 */
async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const client = new DynamoDBClient({
    endpoint,
    region: EMULATOR_REGION,
    credentials: EMULATOR_CREDENTIALS,
    maxAttempts: 2,
    requestHandler: {
      connectionTimeout: 2_000,
      requestTimeout: 5_000,
      throwOnRequestTimeout: true,
    },
  });
  try {
    let table = await describeTable(client, tableName);
    if (table === undefined) {
      try {
        await client.send(new CreateTableCommand(tableDefinition(tableName)));
      } catch (error) {
        if ((error as Error).name !== 'ResourceInUseException') throw error;
      }
    } else {
      checkTableDesign(table);
    }
    const deadline = Date.now() + TABLE_READY_TIMEOUT_MS;
    for (;;) {
      table = await describeTable(client, tableName);
      const indexesActive = (table?.GlobalSecondaryIndexes ?? []).every(
        (index) => index.IndexStatus === 'ACTIVE',
      );
      if (table?.TableStatus === 'ACTIVE' && indexesActive) return;
      if (Date.now() > deadline)
        throw new Error(`table ${tableName} is not ACTIVE after ${TABLE_READY_TIMEOUT_MS} ms`);
      await new Promise((wake) => setTimeout(wake, 20));
    }
  } finally {
    client.destroy();
  }
}

async function describeTable(
  client: DynamoDBClient,
  tableName: string,
): Promise<TableDescription | undefined> {
  try {
    const result = await client.send(new DescribeTableCommand({ TableName: tableName }));
    return result.Table;
  } catch (error) {
    if ((error as Error).name === 'ResourceNotFoundException') return undefined;
    throw error;
  }
}

function tableDefinition(tableName: string) {
  const { partitionKey, sortKey, gsi1 } = TABLE_KEYS;
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: [partitionKey, sortKey, gsi1.partitionKey, gsi1.sortKey].map((name) => ({
      AttributeName: name,
      AttributeType: 'S' as const,
    })),
    KeySchema: [
      { AttributeName: partitionKey, KeyType: 'HASH' as const },
      { AttributeName: sortKey, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: [
      {
        IndexName: gsi1.indexName,
        KeySchema: [
          { AttributeName: gsi1.partitionKey, KeyType: 'HASH' as const },
          { AttributeName: gsi1.sortKey, KeyType: 'RANGE' as const },
        ],
        // listRuns parses whole run records from the index, so it projects every attribute.
        Projection: { ProjectionType: 'ALL' as const },
      },
    ],
  };
}

function checkTableDesign(table: TableDescription): void {
  const { partitionKey, sortKey, gsi1 } = TABLE_KEYS;
  const keys = (table.KeySchema ?? []).map((key) => `${key.AttributeName}:${key.KeyType}`);
  const index = table.GlobalSecondaryIndexes?.find((gsi) => gsi.IndexName === gsi1.indexName);
  if (
    keys.join(',') !== `${partitionKey}:HASH,${sortKey}:RANGE` ||
    index === undefined ||
    index.Projection?.ProjectionType !== 'ALL'
  )
    throw new RalphError(
      `the local table ${table.TableName} does not have the expected key design (${partitionKey}/${sortKey} and index ${gsi1.indexName}); it was created by another version: move its data dir aside`,
      { code: 'LOCAL_STORE_INCOMPATIBLE' },
    );
}

function checkNames(tableName: string, bucketName: string): void {
  // DynamoDB's and S3's own naming rules, checked here so that the emulators fail clearly.
  if (!/^[A-Za-z0-9_.-]{3,255}$/.test(tableName))
    throw new RalphError(
      `table name "${tableName}" must be 3-255 letters, digits, "_", "-" or "."`,
      { code: 'INVALID_INPUT' },
    );
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucketName))
    throw new RalphError(
      `bucket name "${bucketName}" must be 3-63 lower-case letters, digits, "." or "-"`,
      { code: 'INVALID_INPUT' },
    );
}
