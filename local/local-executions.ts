import './polyfills.js';
import { randomUUID } from 'node:crypto';
import { StateMachine, type StateMachineDefinition } from 'aws-local-stepfunctions';
import type { Context } from 'aws-lambda';
import { Logger } from '@aws-lambda-powertools/logger';
import { ExecutionExistsError } from '../lambdas/core/errors.js';
import type { EvaluationDeps } from '../lambdas/core/steps/evaluation-deps.js';
import type {
  CodeHost,
  ExecutionStarter,
  FixPullRequests,
  IncidentStore,
} from '../lambdas/ports.js';
import { makeInitRunHandler } from '../lambdas/handlers/init-run.js';
import { makeAdvanceHandler } from '../lambdas/handlers/advance.js';
import { makeAnalyzeGapHandler } from '../lambdas/handlers/analyze-gap.js';
import { makeCollectArtefactsHandler } from '../lambdas/handlers/collect-artefacts.js';
import { makeEvaluateCheapHandler } from '../lambdas/handlers/evaluate-cheap.js';
import { makeJudgeArtefactHandler } from '../lambdas/handlers/judge-artefact.js';
import { makePauseRunHandler } from '../lambdas/handlers/pause-run.js';
import { makeFinalizeRunHandler } from '../lambdas/handlers/finalize-run.js';
import { makeOpenFixPullRequestHandler } from '../lambdas/handlers/open-fix-pull-request.js';
import {
  LOCAL_STATE_MACHINE_ARN,
  LOCAL_SUBSTITUTIONS,
  loadRunLoopDefinition,
} from './run-loop-definition.js';

type Json = Parameters<StateMachine['run']>[0];

/** What a step of a local execution reports, for live output and benchmarks. */
export interface StepEvent {
  executionName: string;
  state: string;
  durationMs: number;
  input: unknown;
  output?: unknown;
  error?: string;
}

export interface ExecutionOutcome {
  name: string;
  status: 'SUCCEEDED' | 'FAILED' | 'ABORTED';
  error?: string;
  /** The error's name (`States.TaskFailed`, …) when it failed. */
  errorName?: string;
}

/** The Task states the deployment maps to Lambda functions. */
export type LambdaState =
  | 'InitRun'
  | 'OpenFixPullRequest'
  | 'CollectArtefacts'
  | 'JudgeArtefact'
  | 'EvaluateCheap'
  | 'AnalyzeGap'
  | 'Advance'
  | 'PauseRun'
  | 'FinalizeRun'
  | 'RecordRunFailure';

/** A Lambda handler as the runtime calls it. */
export type LambdaHandler = (input: unknown, context: Context) => Promise<unknown>;

export interface LocalExecutionsOptions {
  /** The loop's ports and the evaluation's (pattern sets, the model). */
  deps: EvaluationDeps;
  /** The investigate runs' pull request records and the code host (absent: none configured). */
  fixPullRequests: { records: FixPullRequests; incidents: IncidentStore; codeHost?: CodeHost };
  /** Runs one iteration where the cloud runs an ECS task (the same runner code). */
  runAgent: (input: { runId: string; iteration: number }) => Promise<void>;
  /**
   * Handlers to call instead of the in-process ones, by Task state (`InitRun`...): the
   * deployed bundles' `handler` exports, for a test that runs the loop as deployed.
   */
  lambdas?: Partial<Record<LambdaState, LambdaHandler>>;
  /** Retry pauses in milliseconds instead of the definition's (tests use 0). */
  retryIntervalMs?: number;
  onStep?: (event: StepEvent) => void;
  /**
   * Told of an execution that failed, or was stopped with `stop` (not one `abortAll`
   * interrupted): what EventBridge tells the deployment (Step Functions Execution Status
   * Change). The execution's outcome waits for it.
   */
  onExecutionEnded?: (ended: {
    name: string;
    status: 'FAILED' | 'ABORTED';
    error?: string;
    cause?: string;
  }) => Promise<unknown>;
  logLevel?: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'SILENT';
  /**
   * Told before a run's first execution here starts (throwing refuses the start) and after
   * its last one here ends: run-claims.ts keeps which process runs which run.
   */
  claims?: {
    claim(runId: string): Promise<void>;
    release(runId: string): Promise<void>;
    /** Whether some process (another one included) runs the run now. */
    isLive(runId: string): Promise<boolean>;
  };
}

/**
 * The run-loop state machine on aws-local-stepfunctions: the very ASL file the stack
 * deploys, its Lambda tasks mapped to the same middy handlers in-process, its ECS task to
 * the iteration runner, and its StartExecution task back to this class.
 */
export class LocalExecutions implements ExecutionStarter {
  private readonly machine: StateMachine;
  private readonly started = new Map<string, Promise<ExecutionOutcome>>();
  /** Names being started (claiming the run is awaited): a second start of one is refused. */
  private readonly starting = new Set<string>();
  private readonly aborts = new Map<string, () => void>();
  private readonly ended = new Set<string>();
  /** Executions stopped on purpose (`stop`), whose end is reported like a failure. */
  private readonly stopped = new Map<string, string>();
  private readonly handlers: Record<string, (input: unknown) => Promise<unknown>>;
  /** Each run's executions going on here (a segment starts the next one before it ends). */
  private readonly live = new Map<string, number>();

  constructor(private readonly options: LocalExecutionsOptions) {
    this.machine = new StateMachine(
      loadRunLoopDefinition(LOCAL_SUBSTITUTIONS) as StateMachineDefinition,
    );
    const logger = new Logger({
      serviceName: 'ralph-cloud',
      logLevel: options.logLevel ?? 'SILENT',
    });
    const stepOptions = { deps: () => options.deps, logger };
    const lambdas: Record<LambdaState, LambdaHandler> = {
      InitRun: makeInitRunHandler(stepOptions),
      OpenFixPullRequest: makeOpenFixPullRequestHandler({
        logger,
        deps: () => ({
          ...options.deps,
          fixPullRequests: options.fixPullRequests.records,
          incidents: options.fixPullRequests.incidents,
          ...(options.fixPullRequests.codeHost
            ? { codeHost: options.fixPullRequests.codeHost }
            : {}),
        }),
      }),
      CollectArtefacts: makeCollectArtefactsHandler(stepOptions),
      JudgeArtefact: makeJudgeArtefactHandler(stepOptions),
      EvaluateCheap: makeEvaluateCheapHandler(stepOptions),
      AnalyzeGap: makeAnalyzeGapHandler(stepOptions),
      Advance: makeAdvanceHandler(stepOptions),
      PauseRun: makePauseRunHandler(stepOptions),
      FinalizeRun: makeFinalizeRunHandler(stepOptions),
      RecordRunFailure: makeFinalizeRunHandler(stepOptions),
      ...options.lambdas,
    };
    this.handlers = {
      ...Object.fromEntries(
        Object.entries(lambdas).map(([state, handler]) => [
          state,
          (input: unknown) => handler(input, lambdaContext(state)),
        ]),
      ),
      RunAgent: (input) => this.runAgentTask(input),
      StartNextSegment: (input) => this.startExecutionTask(input),
    };
  }

  async startSegment(input: { runId: string; segment: number }): Promise<{ executionId: string }> {
    const name = `${input.runId}-s${input.segment}`;
    // Checked and reserved before the first await: two resumes racing for one segment
    // must not both pass the check while the run's claim is awaited.
    if (this.started.has(name) || this.starting.has(name)) throw new ExecutionExistsError(name);
    const { runId } = input;
    this.starting.add(name);
    try {
      if (!this.live.has(runId)) await this.options.claims?.claim(runId);
    } finally {
      this.starting.delete(name);
    }
    this.live.set(runId, (this.live.get(runId) ?? 0) + 1);
    const executionId = `${LOCAL_STATE_MACHINE_ARN.replace(':stateMachine:', ':execution:')}:${name}`;
    const execution = this.machine.run(input as Json, {
      overrides: {
        taskResourceLocalHandlers: Object.fromEntries(
          Object.entries(this.handlers).map(([state, handler]) => [
            state,
            (stateInput: Json) => this.timed(name, state, stateInput, handler),
          ]),
        ),
        ...(this.options.retryIntervalMs === undefined
          ? {}
          : { retryIntervalOverrides: this.retryOverrides(this.options.retryIntervalMs) }),
      },
      context: {
        Execution: { Id: executionId, Name: name, StartTime: new Date().toISOString() },
        StateMachine: { Id: LOCAL_STATE_MACHINE_ARN, Name: 'ralph-run-loop' },
      },
    });
    this.aborts.set(name, execution.abort);
    this.started.set(
      name,
      execution.result
        .finally(() => {
          this.ended.add(name);
          return this.settle(runId);
        })
        .then(
          (): ExecutionOutcome => ({ name, status: 'SUCCEEDED' }),
          (error: Error): ExecutionOutcome => ({
            name,
            status: error.name === 'ExecutionAbortedError' ? 'ABORTED' : 'FAILED',
            error: error.message,
            errorName: error.name,
          }),
        )
        .then((outcome) => this.report(outcome)),
    );
    return { executionId };
  }

  /**
   * Whether the segment's execution runs: here, or in another ralph process on the data dir
   * that runs the run (its claim is live; which segment it is on, only that one knows).
   */
  async isRunning(input: { runId: string; segment: number }): Promise<boolean> {
    const here = this.executionRunning(`${input.runId}-s${input.segment}`);
    if (here !== undefined) return here;
    return (
      !this.live.has(input.runId) && ((await this.options.claims?.isLive(input.runId)) ?? false)
    );
  }

  /** Whether the named execution still runs here; undefined when it was never started. */
  executionRunning(name: string): boolean | undefined {
    return this.started.has(name) ? !this.ended.has(name) : undefined;
  }

  /**
   * Waits until the run has no execution left going — segments that start further
   * segments included — and returns the last one's outcome.
   */
  async waitForRun(runId: string): Promise<ExecutionOutcome | undefined> {
    let last: ExecutionOutcome | undefined;
    const awaited = new Set<string>();
    for (;;) {
      const pending = [...this.started.entries()].filter(
        ([name]) => name.startsWith(`${runId}-s`) && !awaited.has(name),
      );
      if (pending.length === 0) return last;
      for (const [name, outcome] of pending) {
        awaited.add(name);
        last = await outcome;
      }
    }
  }

  /**
   * Stops one execution as StopExecution does: it ends ABORTED, and its end is reported
   * (`onExecutionEnded`) with `cause`.
   */
  stop(name: string, cause = 'stopped'): void {
    const abort = this.aborts.get(name);
    if (!abort || this.ended.has(name)) return;
    this.stopped.set(name, cause);
    abort();
  }

  /** One of the run's executions ended here; the run is let go after its last. */
  private async settle(runId: string): Promise<void> {
    const left = (this.live.get(runId) ?? 1) - 1;
    if (left > 0) {
      this.live.set(runId, left);
      return;
    }
    this.live.delete(runId);
    await this.options.claims?.release(runId);
  }

  /** Reports a failed or stopped execution, then hands its outcome on. */
  private async report(outcome: ExecutionOutcome): Promise<ExecutionOutcome> {
    const stopCause = this.stopped.get(outcome.name);
    const reported =
      outcome.status === 'FAILED' || (outcome.status === 'ABORTED' && stopCause !== undefined);
    if (reported && this.options.onExecutionEnded)
      await this.options.onExecutionEnded({
        name: outcome.name,
        status: outcome.status === 'FAILED' ? 'FAILED' : 'ABORTED',
        ...(stopCause === undefined && outcome.errorName ? { error: outcome.errorName } : {}),
        cause: stopCause ?? outcome.error ?? '',
      });
    return outcome;
  }

  /** Stops every execution this process started (the run stays stored as it was). */
  abortAll(): void {
    for (const abort of this.aborts.values()) abort();
  }

  private async timed(
    executionName: string,
    state: string,
    input: unknown,
    handler: (input: unknown) => Promise<unknown>,
  ): Promise<Json> {
    const started = performance.now();
    try {
      const output = await handler(input);
      this.options.onStep?.({
        executionName,
        state,
        input,
        output,
        durationMs: performance.now() - started,
      });
      return (output ?? {}) as Json;
    } catch (error) {
      this.options.onStep?.({
        executionName,
        state,
        input,
        error: `${(error as Error).name}: ${(error as Error).message}`,
        durationMs: performance.now() - started,
      });
      throw error;
    }
  }

  private async runAgentTask(input: unknown): Promise<unknown> {
    const env = containerEnvironment(input);
    const runId = env.RALPH_RUN_ID;
    const iteration = Number(env.RALPH_ITERATION);
    if (!runId || !Number.isInteger(iteration))
      throw new Error('RunAgent: the container overrides lack RALPH_RUN_ID / RALPH_ITERATION');
    await this.options.runAgent({ runId, iteration });
    return { LastStatus: 'STOPPED', Containers: [{ ExitCode: 0 }] };
  }

  private async startExecutionTask(input: unknown): Promise<unknown> {
    const { Input, Name } = input as { Input: { runId: string; segment: number }; Name: string };
    try {
      const { executionId } = await this.startSegment(Input);
      return { ExecutionArn: executionId, Name, StartDate: new Date().toISOString() };
    } catch (error) {
      // The error name the Step Functions service integration reports for the same case.
      if (error instanceof ExecutionExistsError)
        error.name = 'StepFunctions.ExecutionAlreadyExistsException';
      throw error;
    }
  }

  private retryOverrides(ms: number): Record<string, number> {
    return Object.fromEntries(Object.keys(this.handlers).map((state) => [state, ms]));
  }
}

/** The environment the ECS task override would give the container. */
export function containerEnvironment(input: unknown): Record<string, string> {
  const overrides = (
    input as {
      Overrides?: { ContainerOverrides?: { Environment?: { Name: string; Value: string }[] }[] };
    }
  ).Overrides;
  const environment = overrides?.ContainerOverrides?.[0]?.Environment ?? [];
  return Object.fromEntries(environment.map(({ Name, Value }) => [Name, Value]));
}

function lambdaContext(state: string): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: `ralph-${state}`,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local-1:000000000000:function:ralph-${state}`,
    memoryLimitInMB: '1024',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/ralph-${state}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => 900_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
