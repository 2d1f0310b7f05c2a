import { EmfMetricsSink } from '../lambdas/adapters/emf-metrics.js';
import type { MetricsSink } from '../lambdas/metrics-ports.js';
import './polyfills.js';
import { appendFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { DynamoRunStore } from '../lambdas/adapters/dynamodb/run-store.js';
import { ItemTable } from '../lambdas/adapters/dynamodb/item-table.js';
import { DynamoProjectRoutes } from '../lambdas/adapters/dynamodb/project-routes.js';
import { CachedProjectRoutes } from '../lambdas/adapters/cached-project-routes.js';
import { DynamoIncidentStore } from '../lambdas/adapters/dynamodb/incident-store.js';
import { S3ArtefactStore } from '../lambdas/adapters/s3.js';
import { createDynamoDocumentClient, createS3Client } from '../lambdas/adapters/aws-clients.js';
import { systemClock } from '../lambdas/adapters/clock.js';
import { promptTemplates } from '../lambdas/adapters/prompt-template-files.js';
import type { EvaluationDeps } from '../lambdas/core/steps/evaluation-deps.js';
import { DynamoS3PatternSetStore } from '../lambdas/adapters/pattern-sets/pattern-set-store.js';
import type { CodeHost, ModelClient } from '../lambdas/ports.js';
import { DynamoFixPullRequests } from '../lambdas/adapters/dynamodb/fix-pull-requests.js';
import { learningStoreFor } from '../lambdas/adapters/dynamodb/learning-store.js';
import { minisearchRetriever } from '../lambdas/adapters/minisearch-retriever.js';
import type { LearningStore } from '../lambdas/learning-ports.js';
import { localCodeHost } from './local-code-host.js';
import { localModel } from './local-model.js';
import type { Clock, ProjectRoutes } from '../lambdas/ports.js';
import { runIteration } from '../agent/runner.js';
import { recordExecutionEnded } from '../lambdas/core/runs/execution-ended.js';
import { SpawnServer } from './spawn-server/spawn-server.js';
import { FileLiveTranscripts } from './live-transcripts/file-writer.js';
import { startEmulatorsInThread } from './emulator-thread.js';
import { openSharedStore, type SharedStore } from './shared-store.js';
import type { StackFile } from './store-daemon-protocol.js';
import { runClaims } from './run-claims.js';
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
  /**
   * Where investigate runs open their pull requests (tests: the GitHub double). By default
   * GitHub with RALPH_GITHUB_TOKEN (at RALPH_GITHUB_API_URL), else none.
   */
  codeHost?: CodeHost;
}

export interface LocalStack {
  deps: EvaluationDeps;
  /** Which judge evaluations use here: a real model or the offline stand-in, in words. */
  judgeLabel: string;
  executions: LocalExecutions;
  /** Where a person finds an artefact key on disk. */
  describeArtefact(key: string): string;
  /**
   * Whether some process runs the run now (this one, or another ralph process on the data
   * dir): a run stored as running that none runs was interrupted (run-claims.ts).
   */
  isRunLive(runId: string): Promise<boolean>;
  /** Where the emulators listen, and the table and bucket on them. */
  endpoints: StackEndpoints;
  /** Which repository each sender's project is for (error-triggered runs). */
  projectRoutes: ProjectRoutes;
  /** Run hints, project rules and the cross-loop registry, on the same table and bucket. */
  learning: LearningStore;
  close(): Promise<void>;
}

/** The emulators' clients' static credentials: the emulators check none. */
export const EMULATOR_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

export type StackEndpoints = Omit<StackFile, 'pid' | 'leasePort' | 'dataDir'>;

/**
 * The whole serverless stack on this machine: dynalite and s3rver on free loopback ports,
 * and the run-loop state machine on aws-local-stepfunctions. With a `dataDir`, the store
 * is the data dir's store daemon (store-daemon.ts), shared by every ralph process on it: each
 * runs its own runs' executions against it, so runs on different repositories go on side
 * by side and `ralph status` reads them all. Without one, the emulators run in memory on a
 * thread of this process.
 */
export async function openLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const dataDir = options.dataDir === undefined ? undefined : resolve(options.dataDir);
  if (dataDir) await prepareDataDir(dataDir);
  const store = dataDir ? await openShared(dataDir) : await openInMemory();
  const { endpoints } = store;

  const clock = options.clock ?? systemClock;
  const model = options.model ?? localModel();
  const deps = connectStores(endpoints, clock, model.model, localMetrics(dataDir));
  const { runs, artefacts } = deps;
  const investigations = connectInvestigationStores(endpoints, clock);
  const workspaceRoot = join(dataDir ?? process.cwd(), 'workspaces');

  // Closing the stack stops any agent still running (its change is kept as evidence and the
  // iteration reported as interrupted) before the emulators go away under it.
  const stopping = new AbortController();
  const inFlight = new Set<Promise<unknown>>();
  // This one process runs the state machine, the handlers, the emulators' clients and the
  // runner (some 200 MB): the runner's commands start from a small spawn server instead of
  // forking it (local/spawn-server/spawn-server.ts).
  const spawner = new SpawnServer();
  const claims = runClaims({ ...(dataDir ? { dataDir } : {}), artefacts });
  const executions = new LocalExecutions({
    deps,
    fixPullRequests: {
      records: investigations.fixPullRequests,
      incidents: investigations.incidents,
      ...withCodeHost(localCodeHost(options.codeHost)),
    },
    claims,
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
            // What `ralph run --follow` and `ralph watch RUN --follow` read as the agent runs.
            ...(dataDir ? { liveTranscripts: new FileLiveTranscripts(dataDir) } : {}),
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
    isRunLive: (runId) => claims.isLive(runId),
    endpoints,
    projectRoutes: investigations.projectRoutes,
    learning: deps.learning,
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
      await claims.releaseAll();
      await store.close();
    },
  };
}

function withCodeHost(codeHost: CodeHost | undefined): { codeHost?: CodeHost } {
  return codeHost === undefined ? {} : { codeHost };
}

interface OpenStore {
  endpoints: StackEndpoints;
  close(): Promise<void>;
}

/** The data dir's store daemon, started when none serves it; the lease held until closed. */
async function openShared(dataDir: string): Promise<OpenStore> {
  const shared: SharedStore = await openSharedStore(dataDir, {
    onLost: (stack) =>
      process.stderr.write(
        `ralph: the local store process (pid ${stack.pid}) for ${dataDir} has stopped; see ${join(dataDir, 'store.log')}\n`,
      ),
  });
  return {
    endpoints: shared.stack,
    close: async () => shared.release(),
  };
}

/** Emulators in memory, on a thread of this process, stopped with the stack. */
async function openInMemory(): Promise<OpenStore> {
  const emulators = await startEmulatorsInThread({});
  return { endpoints: emulators, close: () => emulators.stop() };
}

/** Route lookups kept locally: short, since `ralph projects set` may run beside `ralph serve`. */
const LOCAL_ROUTE_CACHE_MS = 2_000;

/** The stores error-triggered runs add on the same table: routes and fix pull requests. */
function connectInvestigationStores(
  endpoints: StackEndpoints,
  clock: Clock,
): {
  projectRoutes: ProjectRoutes;
  fixPullRequests: DynamoFixPullRequests;
  incidents: DynamoIncidentStore;
} {
  const client = emulatorDynamoClient(endpoints);
  return {
    // One instance for the projects routes and the hooks, so a save through `ralph serve` is
    // seen by the next delivery; one by another ralph process within LOCAL_ROUTE_CACHE_MS.
    projectRoutes: new CachedProjectRoutes(
      new DynamoProjectRoutes(new ItemTable(client, endpoints.tableName)),
      clock,
      LOCAL_ROUTE_CACHE_MS,
    ),
    fixPullRequests: new DynamoFixPullRequests({ client, tableName: endpoints.tableName }),
    incidents: new DynamoIncidentStore({ client, tableName: endpoints.tableName }),
  };
}

/** A DynamoDB client on the emulators' table. */
function emulatorDynamoClient(endpoints: StackEndpoints) {
  return createDynamoDocumentClient({
    endpoint: endpoints.dynamoEndpoint,
    region: endpoints.region,
    credentials: EMULATOR_CREDENTIALS,
  });
}

/** The adapters over the emulators' endpoints, as the handlers and the runner use them. */
/**
 * The loop's metrics locally: the same EMF documents a deployed step logs, appended to
 * `<data dir>/metrics.jsonl` (kept out of the CLI's output); an in-memory stack drops them.
 */
function localMetrics(dataDir: string | undefined): MetricsSink {
  const file = dataDir === undefined ? undefined : join(dataDir, 'metrics.jsonl');
  return new EmfMetricsSink({
    service: 'ralph-local',
    write: (line) => {
      if (file) appendFileSync(file, line);
    },
  });
}

function connectStores(
  endpoints: StackEndpoints,
  clock: Clock,
  model: ModelClient,
  metrics: MetricsSink,
): EvaluationDeps {
  const dynamo = () => emulatorDynamoClient(endpoints);
  const artefacts = new S3ArtefactStore({
    client: createS3Client({
      endpoint: endpoints.s3Endpoint,
      region: endpoints.region,
      credentials: EMULATOR_CREDENTIALS,
    }),
    bucket: endpoints.bucketName,
    locateAs: artefactInWords,
  });
  return {
    runs: new DynamoRunStore({ client: dynamo(), tableName: endpoints.tableName }),
    artefacts,
    clock,
    templates: promptTemplates(),
    // Hints, rules and the registry, on the table and bucket of the loop's own stores.
    learning: learningStoreFor({
      client: dynamo(),
      tableName: endpoints.tableName,
      artefacts,
      clock,
    }),
    retrievers: minisearchRetriever,
    metrics,
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

/**
 * An artefact key in a person's words, for local messages: the bucket is the emulator's,
 * and an `s3://` URI names nothing a person can open here (`ralph show` can).
 */
export function artefactInWords(key: string): string {
  const ofIteration = /^runs\/([^/]+)\/iterations\/(\d+)\/(.+)$/.exec(key);
  if (ofIteration) return `${ofIteration[3]} of run ${ofIteration[1]}, iteration ${ofIteration[2]}`;
  const ofRun = /^runs\/([^/]+)\/(.+)$/.exec(key);
  if (ofRun) return `${ofRun[2]} of run ${ofRun[1]}`;
  return `${key} in the local store`;
}
