/**
 * What the Advance step's integration tests share: a run over dynalite and s3rver whose
 * iteration has just run (result.json written), the step as the state machine invokes it,
 * and deps that lose a race on the run's save.
 */
import type { RunInvestigation } from '../../lambdas/core/schemas/investigation.js';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoRunStore } from '../../lambdas/adapters/dynamodb/run-store.js';
import { runStoreKeys } from '../../lambdas/adapters/dynamodb/run-items.js';
import { TABLE_KEYS } from '../../lambdas/adapters/table-design.js';
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';
import type { ReviewFinding } from '../../lambdas/core/schemas/review.js';
import { advanceStep, type AdvanceOptions } from '../../lambdas/core/steps/advance.js';
import type { LoopDeps } from '../../lambdas/core/steps/deps.js';
import {
  IterationResultSchema,
  type IterationResult,
} from '../../lambdas/core/schemas/iteration-result.js';
import { type RunConfigInput } from '../../lambdas/core/schemas/config.js';
import { type RunRecord } from '../../lambdas/core/schemas/run.js';
import { type TaskRecord } from '../../lambdas/core/schemas/task.js';
import type { Clock } from '../../lambdas/ports.js';
import type { Emulators } from '../../local/emulators.js';
import { makeIteration, makeRun, makeTask } from './records.js';
import { loopDepsOver, useEmulatorStores, type EmulatorStores } from './emulator-stores.js';

const NOW = new Date('2025-01-15T12:00:00.000Z');
const clock: Clock = { now: () => NOW };

let emulators: Emulators;
/** The step's ports over the emulators (set once they are up). */
export let deps: LoopDeps;

let dynamoConnection: EmulatorStores['dynamoConnection'];

/** Starts the emulators for the test file that calls it, and stops them after it. */
export function useAdvanceStores(): void {
  useEmulatorStores((stores) => {
    ({ emulators, dynamoConnection } = stores);
    deps = loopDepsOver(stores, clock);
  });
}

/** Every test uses its own run id: the table and bucket are shared by the whole file. */
let runCounter = 0;
export function nextRunId(label: string): string {
  runCounter += 1;
  return `advance-${label}-${runCounter}`;
}

export const missingTests: ReviewFinding = {
  kind: 'missing_tests',
  message: '12 source lines added in 1 file (src/a.ts) and no test file changed',
};
export const warnings: ReviewFinding = {
  kind: 'warnings',
  gate: 'lint',
  message: '3 warnings (eslint)',
};

export interface ResultOptions extends Partial<IterationResult> {
  findings?: ReviewFinding[];
}

/** result.json as the runner writes it, for `iteration` of `runId` (US-001 unless told). */
export function result(
  runId: string,
  iteration: number,
  { findings, ...overrides }: ResultOptions = {},
): IterationResult {
  return IterationResultSchema.parse({
    runId,
    iteration,
    taskId: 'US-001',
    outcome: 'passed',
    commit: `c${iteration}`.padEnd(40, '0'),
    durations: { agentMs: 10, gatesMs: 5, runnerMs: 1 },
    startedAt: '2025-01-15T11:00:00.000Z',
    endedAt: '2025-01-15T11:01:00.000Z',
    ...(findings && findings.length > 0 ? { review: { findings } } : {}),
    ...overrides,
  });
}

/** What a failed iteration's result.json says. */
export function failed(runId: string, iteration: number): IterationResult {
  return result(runId, iteration, {
    outcome: 'gates_failed',
    commit: undefined,
    cause: 'gate test failed',
    failureDetail: 'expected 1 to be 2',
  });
}

export interface Setup {
  config?: RunConfigInput;
  tasks?: TaskRecord[];
  /** The run's failure streak before this iteration. */
  consecutiveFailures?: number;
  /** What makes it an investigate run. */
  investigation?: RunInvestigation;
}

export const storyTasks = (runId: string): TaskRecord[] => [
  makeTask({ runId, taskId: 'US-001', priority: 1 }),
  makeTask({ runId, taskId: 'US-002', title: 'Second story', priority: 2 }),
];

/**
 * Stores a run (two stories unless told) whose iteration `report.iteration` is running on
 * `report.taskId`, as prepare-iteration and the runner leave it, with result.json written.
 */
export async function stored(report: IterationResult, setup: Setup = {}): Promise<void> {
  const { runId, iteration } = report;
  const tasks = setup.tasks ?? storyTasks(runId);
  await deps.runs.createRun(
    makeRun({
      runId,
      config: setup.config ?? {},
      iterationsStarted: iteration,
      iterationsCompleted: iteration - 1,
      lastRecordedIteration: iteration - 1,
      consecutiveFailures: setup.consecutiveFailures ?? 0,
      ...(setup.investigation ? { investigation: setup.investigation } : {}),
      storiesTotal: tasks.length,
      storiesPassed: tasks.filter((task) => task.status === 'complete').length,
    }),
    tasks,
  );
  await deps.runs.createIteration(
    makeIteration({
      runId,
      iteration,
      taskId: report.taskId,
      status: 'running',
      startedAt: report.startedAt,
    }),
  );
  await deps.artefacts.put(
    artefactKeys.iteration(runId, iteration, 'result.json'),
    JSON.stringify(report),
  );
}

/** The step as the state machine invokes it, with deps over the emulators unless told. */
export function record(
  runId: string,
  iteration: number,
  over: LoopDeps = deps,
  options: AdvanceOptions = {},
) {
  return advanceStep(over, { runId, segment: 1, iteration }, options);
}

export async function readBack(runId: string): Promise<{ run: RunRecord; tasks: TaskRecord[] }> {
  const run = await deps.runs.getRun(runId);
  if (!run) throw new Error(`run ${runId} is not stored`);
  return { run, tasks: await deps.runs.listTasks(runId) };
}

/** Stores the run, records `report`'s iteration once, and reads everything back. */
export async function recorded(report: IterationResult, setup: Setup = {}) {
  await stored(report, setup);
  const output = await record(report.runId, report.iteration);
  return { output, ...(await readBack(report.runId)) };
}

/**
 * Deps whose DynamoDB client lets `writer` save the run once more just before the step's
 * own save of the run goes out: the step read version N, the table now holds N + 1, and
 * its conditional write fails as a lost race does. `settled()` waits for every call the
 * step sent, so that writes it left in flight have landed before the test reads back.
 */
export function depsRacedOnRunSave(runId: string, writer: (run: RunRecord) => Promise<unknown>) {
  const client = new DynamoDBClient(dynamoConnection);
  const calls: Promise<unknown>[] = [];
  let raced = false;
  client.middlewareStack.add(
    (next) => (args) => {
      const call = next(args);
      calls.push(call.catch(() => undefined));
      return call;
    },
    { step: 'initialize', name: 'trackCalls' },
  );
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (!raced && context.commandName === 'PutItemCommand' && isRunItem(args.input, runId)) {
        raced = true;
        const current = await deps.runs.getRun(runId);
        if (!current) throw new Error(`run ${runId} is not stored`);
        await writer(current);
      }
      return next(args);
    },
    { step: 'build', name: 'writeRunBehindTheStepsBack' },
  );
  return {
    deps: {
      ...deps,
      runs: new DynamoRunStore({ client, tableName: emulators.tableName }),
    } satisfies LoopDeps,
    raced: () => raced,
    settled: async () => {
      await Promise.all(calls);
    },
    close: () => client.destroy(),
  };
}

/** Whether a marshalled PutItem input writes the run item of `runId`. */
function isRunItem(input: unknown, runId: string): boolean {
  const item = (input as { Item?: Record<string, { S?: string } | undefined> }).Item;
  return (
    item?.[TABLE_KEYS.partitionKey]?.S === runStoreKeys.runPk(runId) &&
    item[TABLE_KEYS.sortKey]?.S === runStoreKeys.runSk
  );
}

/** Another writer that saves the run unchanged: only its version moves. */
export const saveAgain = (run: RunRecord) => deps.runs.saveRun(run, run.version);

/** US-001 complete at iteration 1, US-002 still open. */
export function withFirstComplete(runId: string): TaskRecord[] {
  const [first, second] = storyTasks(runId);
  if (!first || !second) throw new Error('two stories expected');
  return [
    {
      ...first,
      status: 'complete',
      attempts: 1,
      lastIteration: 1,
      completedAt: '2025-01-15T11:01:00.000Z',
    },
    second,
  ];
}
