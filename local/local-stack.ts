import './polyfills.js';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { DynamoRunStore } from '../lambdas/adapters/dynamodb/run-store.js';
import { S3ArtefactStore } from '../lambdas/adapters/s3.js';
import { createDynamoDocumentClient, createS3Client } from '../lambdas/adapters/aws-clients.js';
import { systemClock } from '../lambdas/adapters/clock.js';
import { promptTemplates } from '../lambdas/adapters/prompt-template-files.js';
import type { EvaluationDeps } from '../lambdas/core/steps/evaluation-deps.js';
import { DynamoS3PatternSetStore } from '../lambdas/adapters/pattern-sets/pattern-set-store.js';
import type { ModelClient } from '../lambdas/ports.js';
import { localModel } from './local-model.js';
import type { Clock } from '../lambdas/ports.js';
import { runIteration } from '../agent/runner.js';
import { recordExecutionEnded } from '../lambdas/core/runs/execution-ended.js';
import { SpawnServer } from './spawn-server/spawn-server.js';
import type { Emulators } from './emulators.js';
import { startEmulatorsInThread } from './emulator-thread.js';
import {
  LocalExecutions,
  type LocalExecutionsOptions,
  type StepEvent,
} from './local-executions.js';

export interface LocalStackOptions {
  /** Where data lives (DynamoDB and S3 emulators, cloned workspaces); `undefined` = memory only. */
  dataDir?: string;
  retryIntervalMs?: number;
  onStep?: (event: StepEvent) => void;
  clock?: Clock;
  /** How often the runner checks for a cancel request while the agent runs. */
  cancelPollMs?: number;
  /**
   * The judge and proposer (tests pass one speaking to their scripted model server). By
   * default the Anthropic API with ANTHROPIC_API_KEY, else the offline judge.
   */
  model?: { model: ModelClient; label: string; stop?: () => Promise<void> };
  /** Lambda handlers to run instead of the in-process ones (LocalExecutionsOptions.lambdas). */
  lambdas?: LocalExecutionsOptions['lambdas'];
  /**
   * Runs one iteration instead of the in-process runner: a test starts the runner's bundle
   * as a process, as ECS starts the container.
   */
  runAgent?: LocalExecutionsOptions['runAgent'];
}

export interface LocalStack {
  deps: EvaluationDeps;
  /** Which judge evaluations use here: a real model or the offline stand-in, in words. */
  judgeLabel: string;
  executions: LocalExecutions;
  /** Where a person finds an artefact key on disk. */
  describeArtefact(key: string): string;
  /** False when another ralph process owns the store and this one only connects to it. */
  ownsStore: boolean;
  /** The process that owns the store (this one when `ownsStore`). */
  ownerPid: number;
  /** Where the emulators listen, and the table and bucket on them. */
  endpoints: StackEndpoints;
  close(): Promise<void>;
}

/** The emulators' clients' static credentials: the emulators check none. */
export const EMULATOR_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

export type StackEndpoints = Omit<StackFile, 'pid'>;

interface StackFile {
  pid: number;
  dynamoEndpoint: string;
  s3Endpoint: string;
  tableName: string;
  bucketName: string;
  region: string;
}

/**
 * The whole serverless stack on this machine: dynalite and s3rver on free loopback ports
 * with their data under `dataDir`, and the run-loop state machine on
 * aws-local-stepfunctions. When another ralph process already serves `dataDir`, this one
 * connects to its emulators instead (LevelDB allows one owner), so `ralph status` works
 * beside a running `ralph run`.
 */
export async function openLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const dataDir = options.dataDir === undefined ? undefined : resolve(options.dataDir);
  if (dataDir) await prepareDataDir(dataDir);
  const stackFile = dataDir ? join(dataDir, 'stack.json') : undefined;

  const shared = stackFile ? await liveStackFile(stackFile) : undefined;
  const emulators = shared ? undefined : await startEmulatorsInThread({ dataDir });
  const endpoints = shared ?? (await recordEndpoints(emulators!, stackFile));

  const clock = options.clock ?? systemClock;
  const model = options.model ?? localModel();
  const deps = connectStores(endpoints, clock, model.model);
  const { runs, artefacts } = deps;
  const workspaceRoot = join(dataDir ?? process.cwd(), 'workspaces');

  // Closing the stack stops any agent still running (its change is kept as evidence and the
  // iteration reported as interrupted) before the emulators go away under it.
  const stopping = new AbortController();
  const inFlight = new Set<Promise<unknown>>();
  // This one process runs the state machine, the handlers, the emulators' clients and the
  // runner (some 200 MB): the runner's commands start from a small spawn server instead of
  // forking it (local/spawn-server/spawn-server.ts).
  const spawner = new SpawnServer();
  const executions = new LocalExecutions({
    deps,
    retryIntervalMs: options.retryIntervalMs,
    onStep: options.onStep,
    // What the deployment's EventBridge rule does with an execution that ended outside the
    // loop's own paths: the run ends failed, with the cause.
    onExecutionEnded: (ended) => recordExecutionEnded(deps, ended),
    ...(options.lambdas ? { lambdas: options.lambdas } : {}),
    runAgent:
      options.runAgent ??
      (async (input) => {
        const iteration = runIteration(
          {
            runs,
            artefacts,
            clock,
            templates: deps.templates,
            spawner,
            workspaceRoot,
            cancelPollMs: options.cancelPollMs,
            signal: stopping.signal,
          },
          input,
        );
        inFlight.add(iteration);
        try {
          await iteration;
        } finally {
          inFlight.delete(iteration);
        }
      }),
  });

  return {
    deps,
    judgeLabel: model.label,
    executions,
    ownsStore: emulators !== undefined,
    ownerPid: endpoints.pid,
    endpoints,
    // s3rver keeps an object's bytes in `<key>._S3rver_object`; a prefix is a folder.
    describeArtefact: (key) =>
      dataDir
        ? `${join(dataDir, 's3', endpoints.bucketName, key)}${key.endsWith('/') ? '' : '._S3rver_object'}`
        : `s3://${endpoints.bucketName}/${key}`,
    close: async () => {
      executions.abortAll();
      stopping.abort();
      await Promise.allSettled([...inFlight]);
      spawner.close();
      await model.stop?.();
      if (emulators) {
        await emulators.stop();
        if (stackFile) await rm(stackFile, { force: true });
      }
    },
  };
}

/** Where this process's emulators listen, written to `stack.json` for other processes. */
async function recordEndpoints(emulators: Emulators, stackFile?: string): Promise<StackFile> {
  const endpoints = {
    pid: process.pid,
    dynamoEndpoint: emulators.dynamoEndpoint,
    s3Endpoint: emulators.s3Endpoint,
    tableName: emulators.tableName,
    bucketName: emulators.bucketName,
    region: emulators.region,
  };
  if (stackFile) await writeFile(stackFile, JSON.stringify(endpoints, null, 2));
  return endpoints;
}

/** The adapters over the emulators' endpoints, as the handlers and the runner use them. */
function connectStores(endpoints: StackFile, clock: Clock, model: ModelClient): EvaluationDeps {
  const credentials = EMULATOR_CREDENTIALS;
  const dynamo = () =>
    createDynamoDocumentClient({
      endpoint: endpoints.dynamoEndpoint,
      region: endpoints.region,
      credentials,
    });
  const artefacts = new S3ArtefactStore({
    client: createS3Client({
      endpoint: endpoints.s3Endpoint,
      region: endpoints.region,
      credentials,
    }),
    bucket: endpoints.bucketName,
  });
  return {
    runs: new DynamoRunStore({ client: dynamo(), tableName: endpoints.tableName }),
    artefacts,
    clock,
    templates: promptTemplates(),
    patternSets: new DynamoS3PatternSetStore({
      client: dynamo(),
      tableName: endpoints.tableName,
      artefacts,
      clock,
    }),
    model,
  };
}

/**
 * Creates the data dir with a `.gitignore` of `*`. By default it is a per-user directory
 * (bin/cli/data-dir.ts), but `--data-dir` may put it inside the repository a run works on,
 * and then its database must never make the working tree look dirty, be cleaned away by a
 * reset, or be committed with a story (test/e2e/cli.test.ts runs one that way).
 */
async function prepareDataDir(dataDir: string): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  await writeFile(join(dataDir, '.gitignore'), '# ralph-cloud local data\n*\n', {
    flag: 'wx',
  }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
}

/** The endpoints of another live ralph process serving the same data dir, if any. */
async function liveStackFile(path: string): Promise<StackFile | undefined> {
  let stack: StackFile;
  try {
    stack = JSON.parse(await readFile(path, 'utf8')) as StackFile;
  } catch {
    return undefined;
  }
  if (stack.pid === process.pid || !processAlive(stack.pid)) return undefined;
  // A live pid may belong to an unrelated process that reused it: the emulator must answer.
  return (await answers(stack.dynamoEndpoint)) ? stack : undefined;
}

function answers(endpoint: string, timeoutMs = 1_000): Promise<boolean> {
  const { hostname, port } = new URL(endpoint);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port), timeout: timeoutMs });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
