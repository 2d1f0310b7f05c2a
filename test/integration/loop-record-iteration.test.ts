/**
 * record-iteration against dynalite and s3rver through the real adapters: what a passed,
 * reviewed or failed iteration leaves on its task and run, the decision the step returns
 * when the run does not evaluate, and that a step retried after a lost race (Step
 * Functions retries VersionConflictError) counts nothing twice.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoRunStore } from '../../lambdas/adapters/dynamodb/run-store.js';
import { runStoreKeys } from '../../lambdas/adapters/dynamodb/run-items.js';
import { TABLE_KEYS } from '../../lambdas/adapters/table-design.js';
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';
import type { ReviewFinding } from '../../lambdas/core/schemas/review.js';
import { VersionConflictError } from '../../lambdas/core/errors.js';
import { assessProgress } from '../../lambdas/core/steps/assess-progress.js';
import type { LoopDeps } from '../../lambdas/core/steps/deps.js';
import { requestCancel } from '../../lambdas/core/steps/lifecycle.js';
import { prepareIteration } from '../../lambdas/core/steps/prepare-iteration.js';
import { recordIteration } from '../../lambdas/core/steps/record-iteration.js';
import {
  IterationResultSchema,
  type IterationResult,
} from '../../lambdas/core/schemas/iteration-result.js';
import { type RunConfigInput } from '../../lambdas/core/schemas/config.js';
import { type RunRecord } from '../../lambdas/core/schemas/run.js';
import { type TaskRecord } from '../../lambdas/core/schemas/task.js';
import type { Clock } from '../../lambdas/ports.js';
import type { Emulators } from '../../local/emulators.js';
import { makeGate, makeIteration, makeRun, makeTask } from '../support/records.js';
import { useEmulatorStores, type EmulatorStores } from '../support/emulator-stores.js';
import { templates } from '../support/templates.js';

const NOW = new Date('2025-01-15T12:00:00.000Z');
const clock: Clock = { now: () => NOW };

let emulators: Emulators;
let deps: LoopDeps;

let dynamoConnection: EmulatorStores['dynamoConnection'];
useEmulatorStores((stores) => {
  ({ emulators, dynamoConnection } = stores);
  deps = { runs: stores.runs, artefacts: stores.artefacts, clock, templates };
});

/** Every test uses its own run id: the table and bucket are shared by the whole file. */
let runCounter = 0;
function nextRunId(label: string): string {
  runCounter += 1;
  return `record-${label}-${runCounter}`;
}

const missingTests: ReviewFinding = {
  kind: 'missing_tests',
  message: '12 source lines added in 1 file (src/a.ts) and no test file changed',
};
const warnings: ReviewFinding = { kind: 'warnings', gate: 'lint', message: '3 warnings (eslint)' };

interface ResultOptions extends Partial<IterationResult> {
  findings?: ReviewFinding[];
}

/** result.json as the runner writes it, for `iteration` of `runId` (US-001 unless told). */
function result(
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
function failed(runId: string, iteration: number): IterationResult {
  return result(runId, iteration, {
    outcome: 'gates_failed',
    commit: undefined,
    cause: 'gate test failed',
    failureDetail: 'expected 1 to be 2',
  });
}

interface Setup {
  config?: RunConfigInput;
  tasks?: TaskRecord[];
  /** The run's failure streak before this iteration. */
  consecutiveFailures?: number;
}

const storyTasks = (runId: string): TaskRecord[] => [
  makeTask({ runId, taskId: 'US-001', priority: 1 }),
  makeTask({ runId, taskId: 'US-002', title: 'Second story', priority: 2 }),
];

/**
 * Stores a run (two stories unless told) whose iteration `report.iteration` is running on
 * `report.taskId`, as prepare-iteration and the runner leave it, with result.json written.
 */
async function stored(report: IterationResult, setup: Setup = {}): Promise<void> {
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
function record(runId: string, iteration: number, over: LoopDeps = deps) {
  return recordIteration(over, { runId, segment: 1, iteration });
}

async function readBack(runId: string): Promise<{ run: RunRecord; tasks: TaskRecord[] }> {
  const run = await deps.runs.getRun(runId);
  if (!run) throw new Error(`run ${runId} is not stored`);
  return { run, tasks: await deps.runs.listTasks(runId) };
}

/** Stores the run, records `report`'s iteration once, and reads everything back. */
async function recorded(report: IterationResult, setup: Setup = {}) {
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
function depsRacedOnRunSave(runId: string, writer: (run: RunRecord) => Promise<unknown>) {
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
const saveAgain = (run: RunRecord) => deps.runs.saveRun(run, run.version);

describe('Function: recordIteration', () => {
  describe('review', () => {
    it('leaves a story that passed with findings in review, not counted as passed', async () => {
      // Prepare / Act
      const runId = nextRunId('findings');
      const { run, tasks } = await recorded(result(runId, 1, { findings: [missingTests] }));

      // Assess
      expect(tasks[0]).toMatchObject({
        status: 'in_review',
        review: { findings: [missingTests], reviews: 0, iteration: 1 },
      });
      expect(run.storiesPassed).toBe(0);
      // The pass still counts for the run: no failure streak, a checkpoint of 0 stories.
      expect(run).toMatchObject({ consecutiveFailures: 0, iterationsCompleted: 1 });
      expect(run.control?.checkpoints.at(-1)?.quality.storiesComplete).toBe(0);
    });

    it('counts a story that passed without findings', async () => {
      // Prepare / Act
      const runId = nextRunId('clean');
      const { run, tasks } = await recorded(result(runId, 1));

      // Assess
      expect(tasks[0]?.status).toBe('complete');
      expect(tasks[0]).not.toHaveProperty('review');
      expect(run.storiesPassed).toBe(1);
      expect(run.control?.checkpoints.at(-1)?.quality.storiesComplete).toBe(1);
    });

    it.each([
      [0, 'complete', 1],
      [1, 'in_review', 0],
    ] as const)(
      'with maxReviewIterations %i, a pass with findings leaves the story %s (%i passed)',
      async (maxReviewIterations, status, passed) => {
        // Prepare / Act
        const runId = nextRunId(`limit-${maxReviewIterations}`);
        const { run, tasks } = await recorded(result(runId, 1, { findings: [warnings] }), {
          config: { control: { quality: { maxReviewIterations } } },
        });

        // Assess
        expect(tasks[0]?.status).toBe(status);
        expect(tasks[0]?.review?.findings).toEqual([warnings]);
        expect(run.storiesPassed).toBe(passed);
      },
    );

    it('completes a story in review when its review iteration passes, with the limit read from the config', async () => {
      // Prepare: in review after iteration 1; a limit of 2 leaves room for another review.
      const inReview = (runId: string) =>
        makeTask({
          runId,
          status: 'in_review',
          attempts: 1,
          lastIteration: 1,
          review: { findings: [missingTests], reviews: 0, iteration: 1 },
        });
      const config = { control: { quality: { maxReviewIterations: 2 } } };
      const againId = nextRunId('review-again');
      const cleanId = nextRunId('review-clean');

      // Act: the review iteration still finds something; in another run it does not.
      const again = await recorded(result(againId, 2, { findings: [warnings] }), {
        tasks: [inReview(againId)],
        config,
      });
      const clean = await recorded(result(cleanId, 2), { tasks: [inReview(cleanId)], config });

      // Assess: 1 review of 2 used: still in review; a clean review completes it.
      expect(again.tasks[0]).toMatchObject({
        status: 'in_review',
        review: { findings: [warnings], reviews: 1, iteration: 2 },
      });
      expect(again.run.storiesPassed).toBe(0);
      expect(clean.tasks[0]).toMatchObject({
        status: 'complete',
        review: { findings: [], reviews: 1, iteration: 2 },
      });
      expect(clean.run.storiesPassed).toBe(1);
    });

    it("does not count a decomposed story's subtask that is not its last", async () => {
      // Prepare
      const runId = nextRunId('subtask');
      const decomposed = makeTask({
        runId,
        status: 'in_progress',
        subtasks: [
          { id: 'US-001.1', title: 'First half', acceptanceCriteria: ['a'], status: 'open' },
          { id: 'US-001.2', title: 'Second half', acceptanceCriteria: ['b'], status: 'open' },
        ],
      });

      // Act
      const { run, tasks } = await recorded(result(runId, 1, { subtaskId: 'US-001.1' }), {
        tasks: [decomposed],
      });

      // Assess
      expect(tasks[0]?.status).toBe('in_progress');
      expect(tasks[0]?.subtasks?.map((subtask) => subtask.status)).toEqual(['complete', 'open']);
      expect(run.storiesPassed).toBe(0);
    });
  });

  describe('a step retried after losing a race on the run', () => {
    it.each([
      ['with findings', [missingTests], 'in_review', 0, '0 of 2 stories pass, 1 in review'],
      ['without findings', [], 'complete', 1, '1 of 2 stories pass'],
    ] as const)(
      'counts a pass %s once, from the task the first attempt saved',
      async (_label, findings, status, passed, reason) => {
        // Prepare: the first attempt saves task and iteration, and loses the run to a writer.
        const runId = nextRunId('race');
        await stored(result(runId, 1, { findings: [...findings] }));
        const raced = depsRacedOnRunSave(runId, saveAgain);
        const first = record(runId, 1, raced.deps);
        await expect(first).rejects.toThrow(VersionConflictError);
        await expect(first).rejects.toMatchObject({ name: 'VersionConflictError' });
        await raced.settled();
        raced.close();
        const afterFirst = await readBack(runId);
        const iterationAfterFirst = await deps.runs.getIteration(runId, 1);

        // Act: Step Functions retries the step; it reads the task it saved, the run it did not.
        const output = await record(runId, 1);

        // Assess: the race really happened, and the first attempt counted nothing on the run.
        expect(raced.raced()).toBe(true);
        expect(afterFirst.tasks[0]).toMatchObject({ status, attempts: 1, version: 2 });
        expect(afterFirst.run).toMatchObject({
          version: 2,
          lastRecordedIteration: 0,
          iterationsCompleted: 0,
          storiesPassed: 0,
        });
        expect(iterationAfterFirst).toMatchObject({ status: 'recorded', version: 2 });
        // The retry counted the iteration once and left the task as the first attempt saved it.
        const { run, tasks } = await readBack(runId);
        expect(tasks[0]).toEqual(afterFirst.tasks[0]);
        expect(run).toMatchObject({
          version: 3,
          lastRecordedIteration: 1,
          iterationsCompleted: 1,
          storiesPassed: passed,
          consecutiveFailures: 0,
        });
        expect(run.control?.history.filter((entry) => entry.iteration === 1)).toHaveLength(1);
        expect(await deps.runs.getIteration(runId, 1)).toEqual(iterationAfterFirst);
        // The run goes on: the retry, which counted the iteration, planned the next one.
        expect(output).toStrictEqual({
          runId,
          segment: 1,
          iteration: 2,
          action: 'continue',
          reason,
          planned: true,
        });
      },
    );

    it('keeps a cancel requested while the step ran, and the retry decides to cancel', async () => {
      // Prepare: `ralph cancel` saves the run between the step's read and its write.
      const runId = nextRunId('race-cancel');
      await stored(result(runId, 1));
      const raced = depsRacedOnRunSave(runId, () => requestCancel(deps, runId));
      await expect(record(runId, 1, raced.deps)).rejects.toThrow(VersionConflictError);
      await raced.settled();
      raced.close();

      // Act
      const output = await record(runId, 1);

      // Assess: the stale run did not overwrite the request; the story counted once.
      const { run } = await readBack(runId);
      expect(run).toMatchObject({
        cancelRequested: true,
        lastRecordedIteration: 1,
        iterationsCompleted: 1,
        storiesPassed: 1,
      });
      expect(output).toMatchObject({ action: 'cancel', reason: 'cancelled on request' });
    });
  });

  describe('the decision when the run does not evaluate', () => {
    interface Case {
      name: string;
      report: (runId: string) => IterationResult;
      setup?: (runId: string) => Setup;
      action: string;
      reason: string;
    }
    const cases: Case[] = [
      {
        name: 'continues after a pass with stories left',
        report: (runId) => result(runId, 1),
        action: 'continue',
        reason: '1 of 2 stories pass',
      },
      {
        name: 'completes once the last story passes',
        report: (runId) => result(runId, 2, { taskId: 'US-002' }),
        setup: (runId) => ({ tasks: withFirstComplete(runId) }),
        action: 'complete',
        reason: 'all 2 stories pass their gates',
      },
      {
        name: 'continues when the last story passes with findings (it is in review)',
        report: (runId) => result(runId, 2, { taskId: 'US-002', findings: [missingTests] }),
        setup: (runId) => ({ tasks: withFirstComplete(runId) }),
        action: 'continue',
        reason: '1 of 2 stories pass, 1 in review',
      },
      {
        name: 'continues after iteration 2 of at most 3',
        report: (runId) => result(runId, 2),
        setup: () => ({ config: { limits: { maxIterations: 3 } } }),
        action: 'continue',
        reason: '1 of 2 stories pass',
      },
      {
        name: 'stops at max_iterations after iteration 3 of at most 3',
        report: (runId) => result(runId, 3),
        setup: () => ({ config: { limits: { maxIterations: 3 } } }),
        action: 'max_iterations',
        reason: 'reached the limit of 3 iterations; 1 of 2 stories pass',
      },
      {
        name: 'continues after the first failure of at most 2 in a row',
        report: (runId) => failed(runId, 1),
        setup: () => ({ config: { limits: { maxConsecutiveFailures: 2 } } }),
        action: 'continue',
        reason: '0 of 2 stories pass',
      },
      {
        name: 'aborts after the second failure of at most 2 in a row',
        report: (runId) => failed(runId, 2),
        setup: () => ({
          config: { limits: { maxConsecutiveFailures: 2 } },
          consecutiveFailures: 1,
        }),
        action: 'abort',
        reason:
          '2 iterations in a row ended without a counted commit (limit 2); 0 of 2 stories pass',
      },
    ];

    it.each(cases)(
      '$name, as assess-progress decides',
      async ({ report, setup, action, reason }) => {
        // Prepare
        const runId = nextRunId('decide');
        const written = report(runId);

        // Act
        const { output } = await recorded(written, setup?.(runId));
        const assessed = await assessProgress(deps, { runId, segment: 1 });

        // Assess: a run that goes on has its next iteration planned.
        expect(output).toStrictEqual({
          runId,
          segment: 1,
          iteration: written.iteration + (action === 'continue' ? 1 : 0),
          action,
          reason,
          ...(action === 'continue' ? { planned: true } : {}),
        });
        expect({ action: assessed.action, reason: assessed.reason }).toEqual({
          action: output.action,
          reason: output.reason,
        });
      },
    );

    it('returns the same decision from a retried step, counting nothing again', async () => {
      // Prepare: the first attempt recorded everything; its reply was lost.
      const runId = nextRunId('decide-retry');
      const {
        output: first,
        run,
        tasks,
      } = await recorded(result(runId, 2, { taskId: 'US-002' }), {
        tasks: withFirstComplete(runId),
      });

      // Act
      const again = await record(runId, 2);

      // Assess
      expect(first).toMatchObject({ action: 'complete' });
      expect(again).toStrictEqual(first);
      expect(await readBack(runId)).toEqual({ run, tasks });
      expect(run).toMatchObject({ version: 2, iterationsCompleted: 2, storiesPassed: 2 });
    });
  });

  describe('planning the next iteration when the run goes on', () => {
    /** iteration 2's record and plan.json, with the run id written as RUN. */
    async function planOf(runId: string) {
      const record = await deps.runs.getIteration(runId, 2);
      const plan = await deps.artefacts.getText(artefactKeys.iteration(runId, 2, 'plan.json'));
      return JSON.parse(JSON.stringify({ record, plan }).replaceAll(runId, 'RUN')) as unknown;
    }

    it.each([
      ['a pass', (runId: string) => result(runId, 1)],
      [
        'a failure (the plan carries its gates)',
        (runId: string) => ({
          ...failed(runId, 1),
          gates: [
            makeGate({
              outputTail:
                "src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.",
            }),
          ],
        }),
      ],
    ])(
      'writes, after %s, the record and plan.json prepare-iteration would write',
      async (_label, report) => {
        // Prepare: the same run twice; the second is planned by prepare-iteration.
        const here = nextRunId('plan-here');
        const there = nextRunId('plan-there');
        await stored(report(here));
        await stored(report(there));

        // Act
        const output = await record(here, 1);
        await recordIteration(
          deps,
          { runId: there, segment: 1, iteration: 1 },
          {
            planFollowing: false,
          },
        );
        const prepared = await prepareIteration(deps, { runId: there, segment: 1 });

        // Assess
        expect(output).toMatchObject({ iteration: 2, action: 'continue', planned: true });
        expect(prepared.iteration).toBe(2);
        const plan = await planOf(here);
        expect(plan).toEqual(await planOf(there));
        if (report(here).outcome !== 'passed') expect(JSON.stringify(plan)).toContain('TS2322');
        const [ran, prepareRan] = await Promise.all([readBack(here), readBack(there)]);
        expect(ran.run).toMatchObject({ iterationsStarted: 2, lastRecordedIteration: 1 });
        expect(ran.run.version).toBe(prepareRan.run.version - 1);
      },
    );

    it('leaves it to prepare-iteration when only a blocked story is left to pick again', async () => {
      // Prepare: US-002 is blocked (once, below the limit); US-001 passes now.
      const runId = nextRunId('plan-blocked');
      const [first, second] = storyTasks(runId);
      if (!first || !second) throw new Error('two stories expected');
      const blocked: TaskRecord = {
        ...second,
        status: 'blocked',
        attempts: 3,
        timesBlocked: 1,
        block: { reason: 'tests keep failing', at: '2025-01-15T11:00:00.000Z' },
      };

      // Act
      const { output, run } = await recorded(result(runId, 1), { tasks: [first, blocked] });

      // Assess: prepare-iteration picks it again (a new stint); nothing was numbered here.
      expect(output).toStrictEqual({
        runId,
        segment: 1,
        iteration: 1,
        action: 'continue',
        reason: '1 of 2 stories pass',
      });
      expect(run.iterationsStarted).toBe(1);
      expect(await deps.runs.getIteration(runId, 2)).toBeUndefined();
    });
  });

  describe('a run that evaluates', () => {
    it.each([
      ['with stories left', (runId: string) => result(runId, 1), undefined],
      [
        'after its last story passed',
        (runId: string) => result(runId, 2, { taskId: 'US-002' }),
        withFirstComplete,
      ],
    ])('asks for the evaluation and decides nothing, %s', async (_label, report, tasks) => {
      // Prepare
      const runId = nextRunId('evaluate');
      const written = report(runId);

      // Act
      const { output, run } = await recorded(written, {
        config: { evaluation: { enabled: true } },
        ...(tasks ? { tasks: tasks(runId) } : {}),
      });

      // Assess: recorded all the same; assess-progress decides after the evaluation.
      expect(output).toStrictEqual({
        runId,
        segment: 1,
        iteration: written.iteration,
        evaluate: true,
      });
      expect(run.lastRecordedIteration).toBe(written.iteration);
    });
  });
});

/** US-001 complete at iteration 1, US-002 still open. */
function withFirstComplete(runId: string): TaskRecord[] {
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
