/**
 * Baselines, measured in the same process: the same ASL on aws-local-stepfunctions with
 * every Task answering at once (what the engine alone costs per iteration), and the round
 * trip of one DynamoDB GetItem to dynalite.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { StateMachine, type StateMachineDefinition } from 'aws-local-stepfunctions';
import { createDynamoDocumentClient } from '../../lambdas/adapters/aws-clients.js';
import { TABLE_KEYS } from '../../lambdas/adapters/table-design.js';
import { startEmulators } from '../../local/emulators.js';
import { LOCAL_SUBSTITUTIONS, loadRunLoopDefinition } from '../../local/run-loop-definition.js';
import { withCleanup } from './cleanup.js';
import { iterationBounds, iterationOf, stepsOf, type TimedStep } from './loop-steps.js';
import { timeEach } from './timing.js';

export interface BaselineSample {
  wallMs: number;
  engineMs: number;
  betweenMs: number | undefined;
}

type Json = Parameters<StateMachine['run']>[0];
type State = { runId: string; segment: number; iteration?: number };
type NoOpHandlers = Record<string, (input: State) => Promise<unknown>>;

const runId = 'baseline';

/**
 * The same definition on aws-local-stepfunctions with every Task answering at once: the
 * engine's own cost per iteration, measured the same way as the real run.
 */
export async function engineBaseline(iterations: number): Promise<BaselineSample[]> {
  const machine = new StateMachine(
    loadRunLoopDefinition(LOCAL_SUBSTITUTIONS) as StateMachineDefinition,
  );
  const handlers = noOpHandlers(iterations);
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
  return Array.from({ length: iterations }, (_, index) => baselineSample(steps, index + 1));
}

/**
 * Tasks that answer at once with the shapes the real handlers return (a LoopState), so
 * every JSONPath resolves; as the real ones, they decide and, when the run goes on, plan
 * the next iteration.
 */
function noOpHandlers(iterations: number): NoOpHandlers {
  let handedOut = 0;
  return {
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
}

/** Iteration `n` of the baseline: its wall time and the part outside its steps. */
function baselineSample(steps: readonly TimedStep[], n: number): BaselineSample {
  const timed = stepsOf(steps, n);
  const { first, last } = iterationBounds(timed);
  if (!first || !last || !timed.RunAgent)
    throw new Error(`baseline: iteration ${n} is missing a step`);
  const wallMs = last.end - first.start;
  const inSteps = Object.values(timed).reduce((sum, step) => sum + step.end - step.start, 0);
  const next = iterationBounds(stepsOf(steps, n + 1)).first;
  return {
    wallMs,
    engineMs: wallMs - inSteps,
    betweenMs: next ? next.start - last.end : undefined,
  };
}

/** One GetItem round trip to dynalite through the production client configuration. */
export async function getItemBaseline(samples: number): Promise<number[]> {
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
        return await timeEach(samples, get);
      } finally {
        client.destroy();
      }
    },
  );
}
