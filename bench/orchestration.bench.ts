/**
 * Local orchestration overhead per iteration, agent and gates excluded.
 *
 *   npm run bench                      # 1 measured run of 25 iterations, table on stdout
 *   npm run bench -- --runs 3          # 3 measured runs, iterations pooled
 *   npm run -s bench -- --json         # one JSON document on stdout (-s: no npm banner)
 *
 * One measured run: the local stack in memory (dynalite, s3rver, aws-local-stepfunctions,
 * handlers and the iteration runner in-process), a temporary git repository whose
 * prd.json has 25 open stories, no gates, and an agent that only writes one file, so that
 * every iteration passes and commits. Before it, a warm-up run on the same stack (a
 * fresh repository; `--warmup`, default 20 iterations), whose own figures are printed as
 * the cold stack. For iteration n:
 *
 *   wall     = end of the iteration's last step − start of its first step: RunAgent(n)
 *              to Advance(n), which records n, decides and plans n + 1 (InitRun plans a
 *              segment's first iteration); a run that evaluates scores it in between
 *   overhead = wall − agentMs − gatesMs            (durations stored with the iteration)
 *   handlers = the Advance step's duration; Advance(n) includes planning n + 1
 *   runner   = RunAgent step duration − agentMs − gatesMs  (claim, git, S3, files)
 *   engine   = overhead − handlers − runner          (transitions, JSONPath, Choice)

 * The baseline, measured in the same process: the same ASL on aws-local-stepfunctions
 * with every Task answering at once, i.e. what the engine alone costs per iteration; and
 * the round trip of one DynamoDB GetItem to dynalite. Port calls (RunStore,
 * ArtefactStore) and subprocesses (git, the agent's shell) are counted and timed to show
 * where the overhead goes.
 */
import '../local/polyfills.js';
import { AsyncLocalStorage } from 'node:async_hooks';
import type * as ChildProcessModule from 'node:child_process';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { parseArgs } from 'node:util';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { StateMachine, type StateMachineDefinition } from 'aws-local-stepfunctions';
import Table from 'cli-table3';
import { createDynamoDocumentClient } from '../lambdas/adapters/aws-clients.js';
import { TABLE_KEYS } from '../lambdas/adapters/table-design.js';
import type { IterationRecord } from '../lambdas/core/schemas/iteration.js';
import { startEmulators } from '../local/emulators.js';
import type { StepEvent } from '../local/local-executions.js';
import { openLocalStack, type LocalStack } from '../local/local-stack.js';
import { LOCAL_SUBSTITUTIONS, loadRunLoopDefinition } from '../local/run-loop-definition.js';
import { makeGitRepo, makePrd } from '../test/support/git-repo.js';
import type {
  RunRequest,
  RunResult,
  StreamClosed,
  StreamHandlers,
  StreamRequest,
} from '../agent/spawner.js';
import { SpawnServer } from '../local/spawn-server/spawn-server.js';
import { runToEnd, submitLocalRun } from '../test/support/local-runs.js';

const TARGET_MS = 100;
/** No-op-task runs of the engine baseline before it is measured. */
const ENGINE_WARMUP_ITERATIONS = 3;
/**
 * Iterations of a warm-up run on each measured stack, before its measured run: the JIT
 * has compiled the hot paths of the handlers, the SDK clients, the runner and the
 * emulators (whose worker thread is new with each stack) by then. A long run or a warm
 * Lambda is in that state; the warm-up run's own figures are printed as the cold stack.
 */
const DEFAULT_WARMUP_ITERATIONS = 20;
const GET_ITEM_SAMPLES = 200;
/** Does next to nothing, but changes the tree, so that every iteration passes and commits. */
const AGENT_COMMAND = 'cat > /dev/null; echo x > "iteration-$RALPH_ITERATION.txt"';
/**
 * An iteration starts with RunAgent and ends with Advance, which records it, decides and
 * plans the next one (lambdas/core/steps/advance.ts).
 */
const LOOP_STATES = ['RunAgent', 'Advance'] as const;

/** The loop steps iteration `n` ran, by state. */
function stepsOf(
  steps: readonly TimedStep[],
  n: number,
): Partial<Record<LoopStateName, TimedStep>> {
  return Object.fromEntries(
    LOOP_STATES.flatMap((state) => {
      const step = stepWindow(steps, state, n);
      return step ? [[state, step]] : [];
    }),
  );
}

/** The first and last step an iteration ran. */
function iterationBounds(timed: Partial<Record<LoopStateName, TimedStep>>): {
  first: TimedStep | undefined;
  last: TimedStep | undefined;
} {
  return {
    first: timed.RunAgent,
    last: timed.Advance,
  };
}
type LoopStateName = (typeof LOOP_STATES)[number];

// ---------------------------------------------------------------------------------------
// Probes: every subprocess (git, the agent's shell) and every port call, timed.

interface Interval {
  start: number;
  end: number;
}

interface SpawnRecord extends Interval {
  /** `git <subcommand>`, or the program name. */
  label: string;
}

interface PortCallRecord extends Interval {
  /** `runs.getRun`, `artefacts.put`, ... */
  label: string;
  /**
   * Made by another port call, in its async context (a refused put reading the stored
   * object back); calls that merely overlap in time are not nested.
   */
  nested: boolean;
}

const spawns: SpawnRecord[] = [];
const portCalls: PortCallRecord[] = [];

/**
 * Wraps child_process.spawn (execa's entry point) so that each subprocess is timed from
 * spawn to exit, and SpawnServer.run, through which git runs. `syncBuiltinESMExports`
 * makes ES-module importers (execa) see the wrapper.
 */
function probeSubprocesses(): void {
  const childProcess = createRequire(import.meta.url)(
    'node:child_process',
  ) as typeof ChildProcessModule;
  const original = childProcess.spawn;
  const wrapped = (...args: unknown[]): ChildProcessModule.ChildProcess => {
    const start = performance.now();
    const child = Reflect.apply(original, childProcess, args) as ChildProcessModule.ChildProcess;
    const file = String(args[0]);
    const argv = Array.isArray(args[1]) ? (args[1] as unknown[]).map(String) : [];
    const label = file === 'git' ? `git ${gitSubcommand(argv)}` : file;
    child.once('exit', () => spawns.push({ label, start, end: performance.now() }));
    return child;
  };
  childProcess.spawn = wrapped as typeof original;
  syncBuiltinESMExports();
  // git, the agent and the gates run from the local stack's spawn server
  // (local/spawn-server/spawn-server.ts): timed per request.
  const serverStream = SpawnServer.prototype.stream;
  SpawnServer.prototype.stream = function timedStream(
    this: SpawnServer,
    request: StreamRequest,
    handlers?: StreamHandlers,
  ) {
    const start = performance.now();
    const reply = Reflect.apply(serverStream, this, [request, handlers]) as Promise<StreamClosed>;
    const record = () => spawns.push({ label: request.file, start, end: performance.now() });
    reply.then(record, record);
    return reply;
  };
  const serverRun = SpawnServer.prototype.run;
  SpawnServer.prototype.run = function timedRun(this: SpawnServer, request: RunRequest) {
    const start = performance.now();
    const label = request.file === 'git' ? `git ${gitSubcommand(request.args)}` : request.file;
    const reply = Reflect.apply(serverRun, this, [request]) as Promise<RunResult>;
    const record = () => spawns.push({ label, start, end: performance.now() });
    reply.then(record, record);
    return reply;
  };
}

/** The git subcommand, past any `-c key=value` options. */
function gitSubcommand(argv: string[]): string {
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (arg === '-c' || arg === '-C') i += 1;
    else if (!arg.startsWith('-')) return arg;
  }
  return '?';
}

/**
 * Times every method of the stack's RunStore and ArtefactStore. The handlers (through
 * `deps`) and the runner (through the stack's closure) share these very instances, so an
 * own property on the instance sees every call.
 */
/** Set inside a port call: a port call made within it is nested. */
const insidePortCall = new AsyncLocalStorage<true>();

function probePorts(stack: LocalStack): void {
  const targets: [string, object][] = [
    ['runs', stack.deps.runs],
    ['artefacts', stack.deps.artefacts],
  ];
  for (const [name, target] of targets) {
    const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(target)).filter(
      (key) => key !== 'constructor' && typeof Reflect.get(target, key) === 'function',
    );
    for (const method of methods) {
      const original = Reflect.get(target, method) as (...args: unknown[]) => unknown;
      const label = `${name}.${method}`;
      Reflect.set(target, method, async (...args: unknown[]) => {
        const start = performance.now();
        const nested = insidePortCall.getStore() === true;
        try {
          return await insidePortCall.run(true, () => Reflect.apply(original, target, args));
        } finally {
          portCalls.push({ label, nested, start, end: performance.now() });
        }
      });
    }
  }
}

// ---------------------------------------------------------------------------------------
// Statistics.

interface Stats {
  n: number;
  median: number;
  p95: number;
  min: number;
  max: number;
  q1: number;
  q3: number;
  mean: number;
}

/** Percentile by linear interpolation between closest ranks (numpy's default). */
function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  const lowValue = sorted[low] ?? Number.NaN;
  const highValue = sorted[high] ?? Number.NaN;
  return lowValue + (highValue - lowValue) * (rank - low);
}

function stats(values: readonly number[]): Stats {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    n: sorted.length,
    median: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    min: sorted[0] ?? Number.NaN,
    max: sorted[sorted.length - 1] ?? Number.NaN,
    q1: percentile(sorted, 25),
    q3: percentile(sorted, 75),
    mean: sorted.reduce((sum, value) => sum + value, 0) / Math.max(1, sorted.length),
  };
}

// ---------------------------------------------------------------------------------------
// The measured run.

interface TimedStep extends Interval {
  state: string;
  iteration: number | undefined;
}

interface IterationSample {
  run: number;
  iteration: number;
  wallMs: number;
  agentMs: number;
  gatesMs: number;
  overheadMs: number;
  handlersMs: number;
  runnerMs: number;
  engineMs: number;
  /** Route and the transition to the next RunAgent: outside `wall`, for reference. */
  betweenMs: number | undefined;
  /** What the runner itself reports (after its claim, without the RunAgent wrapper). */
  runnerReportedMs: number;
  /** Each loop step's duration. */
  steps: Partial<Record<LoopStateName, number>>;
}

/** The iteration a loop step belongs to, from its input or output. */
function iterationOf(event: StepEvent): number | undefined {
  const fromState = (value: unknown): number | undefined => {
    const iteration = (value as { iteration?: unknown } | undefined)?.iteration;
    return typeof iteration === 'number' ? iteration : undefined;
  };
  if (event.state === 'RunAgent') {
    const overrides = (
      event.input as {
        Overrides?: { ContainerOverrides?: { Environment?: { Name: string; Value: string }[] }[] };
      }
    ).Overrides;
    const value = overrides?.ContainerOverrides?.[0]?.Environment?.find(
      (variable) => variable.Name === 'RALPH_ITERATION',
    )?.Value;
    return value === undefined ? undefined : Number(value);
  }
  return fromState(event.input);
}

interface RunMeasurement {
  samples: IterationSample[];
  /** The warm-up run's, on the same stack, fresh. */
  coldSamples: IterationSample[];
  /** Event-loop busy time of the measured run, from submission to end, per iteration. */
  mainThreadBusyMs: number;
  steps: TimedStep[];
  runId: string;
  stack: LocalStack;
  repoPath: string;
}

const cleanups = new Set<() => Promise<void>>();

async function withCleanup<T>(cleanup: () => Promise<void>, body: () => Promise<T>): Promise<T> {
  cleanups.add(cleanup);
  try {
    return await body();
  } finally {
    cleanups.delete(cleanup);
    await cleanup();
  }
}

/**
 * Opens an in-memory stack, runs `warmupIterations` and then `iterations` no-op iterations,
 * each run on a fresh repository, and hands the measurement to `inspect` before the stack
 * closes.
 */
async function measureRun<T>(
  runIndex: number,
  iterations: number,
  warmupIterations: number,
  inspect: (measurement: RunMeasurement) => Promise<T>,
): Promise<T> {
  const steps: TimedStep[] = [];
  const stack = await openLocalStack({
    retryIntervalMs: 0,
    onStep: (event) => {
      const end = performance.now();
      steps.push({
        state: event.state,
        iteration: iterationOf(event),
        start: end - event.durationMs,
        end,
      });
      if (event.error) process.stderr.write(`  ${event.state} failed: ${event.error}\n`);
    },
  });
  return withCleanup(
    () => stack.close(),
    async () => {
      probePorts(stack);
      const coldSamples =
        warmupIterations > 0
          ? await benchmarkRun(stack, warmupIterations, async ({ snapshot }) =>
              samplesOf(runIndex, steps, snapshot.iterations),
            )
          : [];
      // Both runs number their iterations from 1.
      steps.length = 0;
      return benchmarkRun(stack, iterations, async ({ runId, repoPath, snapshot, busyMs }) => {
        const samples = samplesOf(runIndex, steps, snapshot.iterations);
        const mainThreadBusyMs = busyMs / iterations;
        return inspect({ samples, coldSamples, mainThreadBusyMs, steps, runId, stack, repoPath });
      });
    },
  );
}

interface FinishedRun {
  runId: string;
  repoPath: string;
  snapshot: Awaited<ReturnType<typeof runToEnd>>;
  /** The event loop's busy time from the run's submission to its end. */
  busyMs: number;
}

/** One run of `iterations` stories on `stack`, in a fresh repository, checked to pass every one. */
async function benchmarkRun<T>(
  stack: LocalStack,
  iterations: number,
  inspect: (run: FinishedRun) => Promise<T>,
): Promise<T> {
  const prd = makePrd(iterations);
  const repo = await makeGitRepo({ 'prd.json': `${JSON.stringify(prd, null, 2)}\n` });
  return withCleanup(repo.cleanup, async () => {
    const loop = performance.eventLoopUtilization();
    const runId = await submitLocalRun(stack, {
      repo: repo.path,
      prd,
      config: {
        agent: { command: AGENT_COMMAND, timeoutSeconds: 60 },
        gates: [],
        limits: {
          maxIterations: iterations,
          iterationsPerSegment: iterations,
          maxConsecutiveFailures: 1000,
        },
      },
    });
    const snapshot = await runToEnd(stack, runId);
    const busyMs = performance.eventLoopUtilization(loop).active;
    const passed = snapshot.iterations.filter((record) => record.outcome === 'passed');
    if (snapshot.run.status !== 'completed' || passed.length !== iterations)
      throw new Error(
        `the benchmark run did not complete cleanly: status ${snapshot.run.status}` +
          ` (${snapshot.run.stopReason ?? 'no reason'}), ${passed.length} of ${iterations}` +
          ` iterations passed; first other outcome: ${
            snapshot.iterations.find((record) => record.outcome !== 'passed')?.cause ?? '-'
          }`,
      );
    return inspect({ runId, repoPath: repo.path, snapshot, busyMs });
  });
}

function samplesOf(
  runIndex: number,
  steps: readonly TimedStep[],
  records: readonly IterationRecord[],
): IterationSample[] {
  const stepOf = (state: LoopStateName, iteration: number): TimedStep | undefined => {
    const found = steps.filter((step) => step.state === state && step.iteration === iteration);
    if (found.length !== 1)
      throw new Error(`expected one ${state} step for iteration ${iteration}, saw ${found.length}`);
    return found[0];
  };
  return [...records]
    .sort((a, b) => a.iteration - b.iteration)
    .map((record) => {
      const n = record.iteration;
      const durations = record.durations;
      if (!durations) throw new Error(`iteration ${n} has no durations`);
      const timed = Object.fromEntries(
        LOOP_STATES.map((state) => [state, stepOf(state, n)]),
      ) as Partial<Record<LoopStateName, TimedStep>>;
      const stepMs = Object.fromEntries(
        LOOP_STATES.flatMap((state) => {
          const step = timed[state];
          return step ? [[state, step.end - step.start]] : [];
        }),
      ) as Partial<Record<LoopStateName, number>>;
      const { first, last } = iterationBounds(timed);
      if (!first || !last) throw new Error(`iteration ${n} is missing its steps`);
      const wallMs = last.end - first.start;
      const overheadMs = wallMs - durations.agentMs - durations.gatesMs;
      const handlersMs = stepMs.Advance ?? 0;
      const runnerMs = (stepMs.RunAgent ?? 0) - durations.agentMs - durations.gatesMs;
      const next = iterationBounds(stepsOf(steps, n + 1)).first;
      return {
        run: runIndex,
        iteration: n,
        wallMs,
        agentMs: durations.agentMs,
        gatesMs: durations.gatesMs,
        overheadMs,
        handlersMs,
        runnerMs,
        engineMs: overheadMs - handlersMs - runnerMs,
        betweenMs: next ? next.start - last.end : undefined,
        runnerReportedMs: durations.runnerMs,
        steps: stepMs,
      };
    });
}

// ---------------------------------------------------------------------------------------
// Baselines.

interface BaselineSample {
  wallMs: number;
  engineMs: number;
  betweenMs: number | undefined;
}

/**
 * The same definition on aws-local-stepfunctions with every Task answering at once: the
 * engine's own cost per iteration, measured the same way as the real run.
 */
async function engineBaseline(iterations: number): Promise<BaselineSample[]> {
  const machine = new StateMachine(
    loadRunLoopDefinition(LOCAL_SUBSTITUTIONS) as StateMachineDefinition,
  );
  type Json = Parameters<StateMachine['run']>[0];
  type State = { runId: string; segment: number; iteration?: number };
  const runId = 'baseline';
  let handedOut = 0;
  const handlers: Record<string, (input: State) => Promise<unknown>> = {
    // The shapes the real handlers return (a LoopState), so every JSONPath resolves.
    // As the real ones: they decide and, when the run goes on, plan the next iteration.
    InitRun: async ({ segment }) => ({
      runId,
      segment,
      iteration: ++handedOut,
      action: 'continue',
      reason: 'start',
      planned: true,
    }),
    RunAgent: async () => ({ LastStatus: 'STOPPED', Containers: [{ ExitCode: 0 }] }),
    Advance: async ({ segment, iteration }) =>
      (iteration ?? 0) >= iterations
        ? { runId, segment, iteration, action: 'complete', reason: 'baseline' }
        : {
            runId,
            segment,
            iteration: ++handedOut,
            action: 'continue',
            reason: 'baseline',
            planned: true,
          },
    PauseRun: async ({ segment }) => ({ runId, segment, action: 'pause', reason: 'baseline' }),
    FinalizeRun: async ({ segment }) => ({ runId, segment, reason: 'baseline' }),
    RecordRunFailure: async ({ segment }) => ({ runId, segment, reason: 'baseline' }),
    StartNextSegment: async () => ({}),
  };
  const steps: TimedStep[] = [];
  const execution = machine.run({ runId, segment: 1 } as Json, {
    overrides: {
      taskResourceLocalHandlers: Object.fromEntries(
        Object.entries(handlers).map(([state, handler]) => [
          state,
          async (input: Json) => {
            const start = performance.now();
            const output = await handler(input as unknown as State);
            const end = performance.now();
            const event = { executionName: runId, state, input, output, durationMs: 0 };
            steps.push({ state, iteration: iterationOf(event), start, end });
            return output as Json;
          },
        ]),
      ),
      retryIntervalOverrides: Object.fromEntries(Object.keys(handlers).map((s) => [s, 0])),
    },
  });
  await execution.result;
  const samples: BaselineSample[] = [];
  for (let n = 1; n <= iterations; n += 1) {
    const timed = stepsOf(steps, n);
    const { first, last } = iterationBounds(timed);
    if (!first || !last || !timed.RunAgent)
      throw new Error(`baseline: iteration ${n} is missing a step`);
    const wallMs = last.end - first.start;
    const inSteps = Object.values(timed).reduce((sum, step) => sum + step.end - step.start, 0);
    const next = iterationBounds(stepsOf(steps, n + 1)).first;
    samples.push({
      wallMs,
      engineMs: wallMs - inSteps,
      betweenMs: next ? next.start - last.end : undefined,
    });
  }
  return samples;
}

/** One GetItem round trip to dynalite through the production client configuration. */
async function getItemBaseline(samples: number): Promise<number[]> {
  const emulators = await startEmulators();
  return withCleanup(
    () => emulators.stop(),
    async () => {
      const client = createDynamoDocumentClient({
        endpoint: emulators.dynamoEndpoint,
        region: emulators.region,
        credentials: emulators.credentials,
      });
      try {
        const Key = { [TABLE_KEYS.partitionKey]: 'RUN#bench', [TABLE_KEYS.sortKey]: 'RUN' };
        await client.send(
          new PutCommand({
            TableName: emulators.tableName,
            Item: { ...Key, payload: 'x'.repeat(2_000) },
          }),
        );
        const get = () => client.send(new GetCommand({ TableName: emulators.tableName, Key }));
        for (let i = 0; i < 20; i += 1) await get();
        const times: number[] = [];
        for (let i = 0; i < samples; i += 1) {
          const start = performance.now();
          await get();
          times.push(performance.now() - start);
        }
        return times;
      } finally {
        client.destroy();
      }
    },
  );
}

// ---------------------------------------------------------------------------------------
// Profile: where the overhead goes, per iteration.

type Kind = 'DynamoDB' | 'S3' | 'git' | 'agent' | 'other';

interface ProfileRow {
  step: LoopStateName;
  kind: Kind;
  /** A port method or a git subcommand; empty for a kind's subtotal. */
  call: string;
  /** Requests or subprocesses per iteration (an S3 put is a HeadObject and a PutObject). */
  perIteration: number;
  msPerIteration: number;
}

interface TraceEntry {
  step: LoopStateName;
  atMs: number;
  ms: number;
  call: string;
}

interface Measured {
  samples: IterationSample[];
  coldSamples: IterationSample[];
  mainThreadBusyMs: number;
  steps: TimedStep[];
}

function stepWindow(steps: readonly TimedStep[], state: LoopStateName, iteration: number) {
  return steps.find((step) => step.state === state && step.iteration === iteration);
}

/** Port calls and subprocesses that started inside `window`, in order. */
function callsIn(
  window: Interval,
): { kind: Kind; call: string; nested: boolean; interval: Interval }[] {
  const inside = (interval: Interval) =>
    interval.start >= window.start && interval.start <= window.end;
  return [
    ...portCalls.filter(inside).map((call) => ({
      kind: (call.label.startsWith('runs.') ? 'DynamoDB' : 'S3') as Kind,
      call: call.label,
      nested: call.nested,
      interval: call,
    })),
    ...spawns.filter(inside).map((spawned) => ({
      kind: (spawned.label.startsWith('git ') ? 'git' : 'agent') as Kind,
      call: spawned.label,
      nested: false,
      interval: spawned,
    })),
  ].sort((a, b) => a.interval.start - b.interval.start);
}

/**
 * Mean per iteration, by step and kind (subtotals, `call` empty) and by call. Time is
 * counted for top-level calls only (a refused put's read-back is inside the put's time),
 * requests for every call. Calls made side by side each count their whole time, so a
 * kind's time can exceed its step's; `other` is the step's time with no call in flight:
 * JavaScript (zod, middy, prompt), the file system, the event loop.
 */
function profileOf(measurements: readonly Measured[]): ProfileRow[] {
  const totals = new Map<string, ProfileRow>();
  let iterations = 0;
  const add = (step: LoopStateName, kind: Kind, call: string, count: number, ms: number) => {
    const key = `${step}\0${kind}\0${call}`;
    const row = totals.get(key) ?? { step, kind, call, perIteration: 0, msPerIteration: 0 };
    row.perIteration += count;
    row.msPerIteration += ms;
    totals.set(key, row);
  };
  for (const { samples, steps } of measurements) {
    for (const sample of samples) {
      iterations += 1;
      for (const state of LOOP_STATES) {
        const window = stepWindow(steps, state, sample.iteration);
        if (!window) continue;
        const calls = callsIn(window);
        for (const { kind, call, nested, interval } of calls) {
          const ms = nested ? 0 : interval.end - interval.start;
          add(state, kind, '', 1, ms);
          add(state, kind, call, 1, ms);
        }
        const busy = unionMs(calls.map((call) => clip(call.interval, window)));
        add(state, 'other', '', 0, window.end - window.start - busy);
      }
    }
  }
  const kinds: Kind[] = ['DynamoDB', 'S3', 'git', 'agent', 'other'];
  return [...totals.values()]
    .map((row) => ({
      ...row,
      perIteration: row.perIteration / Math.max(1, iterations),
      msPerIteration: row.msPerIteration / Math.max(1, iterations),
    }))
    .sort(
      (a, b) =>
        LOOP_STATES.indexOf(a.step) - LOOP_STATES.indexOf(b.step) ||
        kinds.indexOf(a.kind) - kinds.indexOf(b.kind) ||
        (a.call === '' ? -1 : 0) - (b.call === '' ? -1 : 0) ||
        b.msPerIteration - a.msPerIteration,
    );
}

function clip(interval: Interval, window: Interval): Interval {
  return {
    start: Math.max(interval.start, window.start),
    end: Math.min(interval.end, window.end),
  };
}

/** How long at least one of `intervals` was open. */
function unionMs(intervals: readonly Interval[]): number {
  const sorted = [...intervals].sort((a, b) => a.start - b.start);
  let total = 0;
  let open: Interval | undefined;
  for (const interval of sorted) {
    if (open && interval.start <= open.end) open.end = Math.max(open.end, interval.end);
    else {
      if (open) total += open.end - open.start;
      open = { ...interval };
    }
  }
  return total + (open ? open.end - open.start : 0);
}

/** Time per kind of call over one iteration's four steps (top-level calls only). */
function kindsOf(measured: Measured | undefined, iteration: number): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const state of LOOP_STATES) {
    const window = measured && stepWindow(measured.steps, state, iteration);
    if (!window) continue;
    for (const { kind, nested, interval } of callsIn(window))
      if (!nested) totals[kind] = (totals[kind] ?? 0) + interval.end - interval.start;
  }
  return Object.fromEntries(Object.entries(totals).map(([kind, ms]) => [kind, round(ms, 2)]));
}

/** Every call of one iteration, in order, with its offset from the step's start. */
function traceOf(measured: Measured, iteration: number): TraceEntry[] {
  return LOOP_STATES.flatMap((state) => {
    const window = stepWindow(measured.steps, state, iteration);
    if (!window) return [];
    return callsIn(window).map(({ call, nested, interval }) => ({
      step: state,
      atMs: round(interval.start - window.start, 2),
      ms: round(interval.end - interval.start, 2),
      call: nested ? `  ${call} (inside the call above)` : call,
    }));
  });
}

/**
 * One `git rev-parse HEAD` the way the local runner runs it (through a spawn server), and the
 * same spawned from this process, whose fork costs in proportion to its size.
 */
async function gitCallReferences(
  cwd: string,
): Promise<{ viaServer: number[]; spawnedHere: number[] }> {
  const { execFile } = await import('node:child_process');
  const server = new SpawnServer();
  const viaServer = async () => {
    const result = await server.run({
      file: 'git',
      args: ['rev-parse', 'HEAD'],
      cwd,
      env: { PATH: process.env.PATH ?? '', GIT_TERMINAL_PROMPT: '0' },
      timeoutMs: 60_000,
      killGraceMs: 5_000,
      maxOutputBytes: 256 * 1024 * 1024,
    });
    if (result.exitCode !== 0) throw new Error(result.stderr.toString());
  };
  const spawnedHere = () =>
    new Promise<void>((resolve, reject) =>
      execFile('git', ['rev-parse', 'HEAD'], { cwd }, (error) =>
        error ? reject(error) : resolve(),
      ),
    );
  const time = async (fn: () => Promise<void>) => {
    const times: number[] = [];
    for (let i = 0; i < 25; i += 1) {
      const start = performance.now();
      await fn();
      times.push(performance.now() - start);
    }
    return times;
  };
  try {
    await time(viaServer);
    await time(spawnedHere);
    return { viaServer: await time(viaServer), spawnedHere: await time(spawnedHere) };
  } finally {
    server.close();
  }
}

// ---------------------------------------------------------------------------------------
// Main.

interface Options {
  runs: number;
  iterations: number;
  warmup: number;
  json: boolean;
  trace: boolean;
}

function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '1' },
      iterations: { type: 'string', default: '25' },
      warmup: { type: 'string', default: String(DEFAULT_WARMUP_ITERATIONS) },
      json: { type: 'boolean', default: false },
      trace: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(
      'usage: npm run bench -- [--runs N] [--iterations N] [--warmup N] [--json] [--trace]\n' +
        '  --runs N        measured runs, iterations pooled (default 1)\n' +
        '  --iterations N  iterations per run, at least 20 (default 25)\n' +
        `  --warmup N      iterations of a warm-up run on each stack first (default ${DEFAULT_WARMUP_ITERATIONS})\n` +
        '  --trace         also print every call of one iteration, in order\n' +
        '  --json          one JSON document on stdout (use npm run -s to drop the banner)\n',
    );
    process.exit(0);
  }
  const integer = (text: string, name: string, min: number) => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < min)
      throw new Error(`--${name} must be an integer ≥ ${min}, got "${text}"`);
    return value;
  };
  return {
    runs: integer(values.runs, 'runs', 1),
    iterations: integer(values.iterations, 'iterations', 20),
    warmup: integer(values.warmup, 'warmup', 0),
    json: values.json,
    trace: values.trace,
  };
}

function round(value: number, digits = 1): number {
  return Number(value.toFixed(digits));
}

function roundedStats(values: readonly number[]): Stats {
  const s = stats(values);
  return Object.fromEntries(
    Object.entries(s).map(([key, value]) => [key, key === 'n' ? value : round(value, 2)]),
  ) as unknown as Stats;
}

const fmt = (value: number) => (Number.isNaN(value) ? '-' : value.toFixed(1));
const plainTable = (head: string[], colAligns: ('left' | 'right')[]) =>
  new Table({ head, colAligns, style: { head: [], border: [] } });

async function main(): Promise<void> {
  const options = parseOptions();
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const started = performance.now();
  probeSubprocesses();

  await engineBaseline(ENGINE_WARMUP_ITERATIONS);

  const measurements: Measured[] = [];
  const getRunTimes: number[] = [];
  const gitCalls = { viaServer: [] as number[], spawnedHere: [] as number[] };
  let rssMb = 0;
  for (let run = 1; run <= options.runs; run += 1) {
    log(
      `measured run ${run}/${options.runs}: a warm-up run of ${options.warmup} iterations, ` +
        `then ${options.iterations}…`,
    );
    const runStarted = performance.now();
    measurements.push(
      await measureRun(run, options.iterations, options.warmup, async (m) => {
        // References taken on the same warm stack, in the same process, right after the run.
        rssMb = Math.max(rssMb, process.memoryUsage().rss / 2 ** 20);
        for (let i = 0; i < 50; i += 1) {
          const start = performance.now();
          await m.stack.deps.runs.getRun(m.runId);
          getRunTimes.push(performance.now() - start);
        }
        const references = await gitCallReferences(m.repoPath);
        gitCalls.viaServer.push(...references.viaServer);
        gitCalls.spawnedHere.push(...references.spawnedHere);
        return {
          samples: m.samples,
          coldSamples: m.coldSamples,
          mainThreadBusyMs: m.mainThreadBusyMs,
          steps: m.steps,
        };
      }),
    );
    log(`  took ${Math.round(performance.now() - runStarted)} ms`);
  }

  log('baseline: engine with no-op tasks, DynamoDB GetItem…');
  const baseline: BaselineSample[] = [];
  for (let run = 1; run <= options.runs; run += 1)
    baseline.push(...(await engineBaseline(options.iterations)));
  const getItemTimes = await getItemBaseline(GET_ITEM_SAMPLES);

  const samples = measurements.flatMap((m) => m.samples);
  const coldOverheads = measurements.flatMap((m) => m.coldSamples.map((c) => c.overheadMs));
  const mainThreadBusyMs =
    measurements.reduce((sum, m) => sum + m.mainThreadBusyMs, 0) / measurements.length;
  const pick = (field: keyof IterationSample) =>
    samples
      .map((sample) => sample[field])
      .filter((value): value is number => typeof value === 'number');
  const defined = (values: (number | undefined)[]) =>
    values.filter((value): value is number => value !== undefined);
  const summaryRows: { key: string; label: string; values: number[]; target?: boolean }[] = [
    { key: 'overhead', label: 'orchestration overhead', values: pick('overheadMs'), target: true },
    ...(coldOverheads.length > 0
      ? [{ key: 'cold', label: '  cold stack: the warm-up run', values: coldOverheads }]
      : []),
    {
      key: 'handlers',
      label: '  handlers: Prepare + Record (+ Assess)',
      values: pick('handlersMs'),
    },
    { key: 'runner', label: '  runner: RunAgent − agent − gates', values: pick('runnerMs') },
    { key: 'engine', label: '  engine: transitions, the rest', values: pick('engineMs') },
    ...LOOP_STATES.map((state) => ({
      key: `step.${state}`,
      label: `step ${state}`,
      values: defined(samples.map((sample) => sample.steps[state])),
    })).filter((row) => row.values.length > 0),
    { key: 'agent', label: 'agent (excluded)', values: pick('agentMs') },
    { key: 'wall', label: 'iteration wall time', values: pick('wallMs') },
    {
      key: 'between',
      label: 'to the next iteration (not in wall)',
      values: defined(samples.map((sample) => sample.betweenMs)),
    },
    {
      key: 'baselineEngine',
      label: 'BASELINE engine, no-op tasks',
      values: baseline.map((b) => b.wallMs),
    },
    {
      key: 'baselineBetween',
      label: 'BASELINE to the next iteration',
      values: defined(baseline.map((b) => b.betweenMs)),
    },
    { key: 'getItem', label: 'BASELINE DynamoDB GetItem', values: getItemTimes },
    { key: 'getRun', label: 'ref. RunStore.getRun (+ zod)', values: getRunTimes },
    { key: 'gitViaServer', label: 'ref. 1 git call, spawn server', values: gitCalls.viaServer },
    {
      key: 'gitSpawnedHere',
      label: 'ref. 1 git call, forked here',
      values: gitCalls.spawnedHere,
    },
  ];
  const overhead = stats(pick('overheadMs'));
  const met = overhead.median <= TARGET_MS && overhead.p95 <= TARGET_MS;
  const profile = profileOf(measurements);
  const firstRun = measurements[0];
  const traceIteration = Math.min(2, options.iterations);
  const trace = firstRun ? traceOf(firstRun, traceIteration) : [];
  const verdict =
    `orchestration overhead per iteration: median ${round(overhead.median)} ms, ` +
    `p95 ${round(overhead.p95)} ms (target ≤ ${TARGET_MS} ms: ${met ? 'met' : 'NOT met'})`;

  if (options.json) {
    const roundSample = (sample: IterationSample) =>
      Object.fromEntries(
        Object.entries(sample).map(([key, value]) => [
          key,
          typeof value === 'number'
            ? round(value, 2)
            : key === 'steps'
              ? Object.fromEntries(
                  Object.entries(value as Record<string, number>).map(([k, v]) => [k, round(v, 2)]),
                )
              : value,
        ]),
      );
    process.stdout.write(
      `${JSON.stringify(
        {
          verdict,
          target: { ms: TARGET_MS, met, rule: 'median and p95 of the overhead ≤ target' },
          config: {
            runs: options.runs,
            iterationsPerRun: options.iterations,
            iterationsPooled: samples.length,
            warmupIterations: options.warmup,
            agentCommand: AGENT_COMMAND,
            gates: 0,
            node: process.version,
            rssMb: Math.round(rssMb),
            percentile: 'linear interpolation between closest ranks',
          },
          mainThreadBusyMsPerIteration: round(mainThreadBusyMs, 1),
          summaryMs: Object.fromEntries(
            summaryRows.map((row) => [row.key, roundedStats(row.values)]),
          ),
          profile: profile.map((row) => ({
            ...row,
            perIteration: round(row.perIteration, 2),
            msPerIteration: round(row.msPerIteration, 2),
          })),
          trace: { run: 1, iteration: traceIteration, calls: trace },
          iterations: samples.map((sample) => ({
            ...roundSample(sample),
            byKindMs: kindsOf(measurements[sample.run - 1], sample.iteration),
          })),
          elapsedMs: Math.round(performance.now() - started),
        },
        null,
        2,
      )}\n`,
    );
    return;
  }

  const out = (line = '') => process.stdout.write(`${line}\n`);
  out(
    `Local orchestration overhead per iteration, agent and gates excluded: ${samples.length} ` +
      `iterations (${options.runs} run${options.runs > 1 ? 's' : ''} × ${options.iterations}, ` +
      `each after a ${options.warmup}-iteration warm-up run on the same stack), no-op agent, ` +
      `no gates; Node ${process.version}, RSS ${Math.round(rssMb)} MB; times in ms`,
  );
  out(
    `main thread busy: ${round(mainThreadBusyMs)} ms per iteration (the event loop that runs ` +
      'the engine, the handlers, the runner and the SDK clients)',
  );
  const summary = plainTable(
    ['', 'median', 'p95', 'min', 'max', 'IQR', 'target'],
    ['left', 'right', 'right', 'right', 'right', 'right', 'left'],
  );
  for (const row of summaryRows) {
    const s = stats(row.values);
    summary.push([
      row.label,
      fmt(s.median),
      fmt(s.p95),
      fmt(s.min),
      fmt(s.max),
      `${fmt(s.q1)}–${fmt(s.q3)}`,
      row.target ? `≤ ${TARGET_MS}: ${met ? 'met' : 'NOT met'}` : '',
    ]);
  }
  out(summary.toString());
  out(
    'overhead = Advance end − RunAgent start − agentMs − gatesMs; engine = ' +
      'overhead − step durations; BASELINE = same ASL, every Task a no-op; p95 interpolated',
  );

  out();
  out(
    'Where the time goes (mean per iteration; calls side by side each count their whole time; ' +
      'other = no call in flight):',
  );
  const where = plainTable(
    ['step', 'kind', 'calls', 'ms', 'biggest calls (count × ms/call)'],
    ['left', 'left', 'right', 'right', 'left'],
  );
  for (const subtotal of profile.filter((row) => row.call === '')) {
    const detail = profile
      .filter(
        (row) =>
          row.call !== '' &&
          row.step === subtotal.step &&
          row.kind === subtotal.kind &&
          row.msPerIteration > 0,
      )
      .slice(0, 4)
      .map(
        (row) =>
          `${row.call.replace(/^(runs|artefacts)\./, '')} ${fmt(row.perIteration)}×` +
          `${fmt(row.msPerIteration / row.perIteration)}`,
      );
    if (subtotal.msPerIteration < 0.05 && subtotal.perIteration === 0) continue;
    where.push([
      subtotal.step,
      subtotal.kind,
      subtotal.kind === 'other' ? '' : fmt(subtotal.perIteration),
      fmt(subtotal.msPerIteration),
      detail.join(', '),
    ]);
  }
  out(where.toString());

  if (options.trace) {
    out();
    out(`Every call of iteration ${traceIteration} (run 1), in order:`);
    const traced = plainTable(['step', '+ms', 'ms', 'call'], ['left', 'right', 'right', 'left']);
    for (const entry of trace)
      traced.push([entry.step, fmt(entry.atMs), fmt(entry.ms), entry.call]);
    out(traced.toString());
  }
  out();
  out(verdict);
}

let interrupted = false;
process.once('SIGINT', () => {
  interrupted = true;
  process.stderr.write('interrupted: cleaning up…\n');
  void Promise.allSettled([...cleanups].map((cleanup) => cleanup())).then(() => process.exit(130));
});

main().then(
  () => {
    if (!interrupted) process.exitCode = 0;
  },
  (error: unknown) => {
    process.stderr.write(
      `bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
