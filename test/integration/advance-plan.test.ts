/**
 * Planning a run's next iteration (the Advance step with nothing to record, as a segment
 * starts) against dynalite and s3rver through the real adapters: the plan it writes for a
 * task in review (the reviewer's mode and plan-control's review section), and the tasks a
 * pending reset to a checkpoint reopens.
 */
import { describe, expect, it } from 'vitest';
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';
import type { ReviewFinding } from '../../lambdas/core/schemas/review.js';
import type { LoopDeps } from '../../lambdas/core/steps/deps.js';
import { advanceStep } from '../../lambdas/core/steps/advance.js';
import { IterationPlanSchema, type IterationPlan } from '../../lambdas/core/schemas/plan.js';
import { type RunConfigInput } from '../../lambdas/core/schemas/config.js';
import { type TaskRecord } from '../../lambdas/core/schemas/task.js';
import type { Clock } from '../../lambdas/ports.js';
import { makeRun, makeTask } from '../support/records.js';
import { loopDepsOver, useEmulatorStores } from '../support/emulator-stores.js';

const NOW = new Date('2025-01-15T12:00:00.000Z');
const clock: Clock = { now: () => NOW };

let deps: LoopDeps;
useEmulatorStores((stores) => {
  deps = loopDepsOver(stores, clock);
});

/** Every test uses its own run id: the table and bucket are shared by the whole file. */
let runCounter = 0;
function nextRunId(label: string): string {
  runCounter += 1;
  return `plan-${label}-${runCounter}`;
}

const missingTests: ReviewFinding = {
  kind: 'missing_tests',
  message: '12 source lines added in 1 file (src/a.ts) and no test file changed',
};
const audit: ReviewFinding = {
  kind: 'security',
  gate: 'audit',
  message: '2 moderate vulnerabilities reported (not blocking)',
};

const CHECKPOINT_ITERATION = 4;
const checkpointOf = (runId: string) => ({
  tag: `ralph/${runId}/checkpoint-${CHECKPOINT_ITERATION}`,
  iteration: CHECKPOINT_ITERATION,
  commit: 'a'.repeat(40),
  createdAt: '2025-01-15T10:30:00.000Z',
  quality: { testsPassed: 0, testsTotal: 0, passRate: 1, warnings: 0, storiesComplete: 1 },
  why: 'first checkpoint',
});

interface Setup {
  runId: string;
  tasks: TaskRecord[];
  config?: RunConfigInput;
  /** The last recorded iteration asked for a reset to the checkpoint at 4. */
  reset?: boolean;
  lastRecordedIteration?: number;
}

/** Stores a run with `tasks` whose last iteration was recorded (and nothing planned yet). */
async function stored({
  runId,
  tasks,
  config = {},
  reset = false,
  lastRecordedIteration = 6,
}: Setup) {
  const checkpoint = checkpointOf(runId);
  await deps.runs.createRun(
    makeRun({
      runId,
      config,
      iterationsStarted: lastRecordedIteration,
      iterationsCompleted: lastRecordedIteration,
      lastRecordedIteration,
      storiesTotal: tasks.length,
      storiesPassed: tasks.filter((task) => task.status === 'complete').length,
      control: reset
        ? {
            checkpoints: [checkpoint],
            reset: { after: lastRecordedIteration, checkpoint, reason: 'supervisor: RESET' },
          }
        : {},
    }),
    tasks,
  );
}

/** Runs the step as the state machine does; returns the plan it wrote and what is stored. */
async function prepare(runId: string) {
  const state = await advanceStep(deps, { runId, segment: 1 });
  const iteration = state.iteration ?? 0;
  const planText = await deps.artefacts.getText(
    artefactKeys.iteration(runId, iteration, 'plan.json'),
  );
  return {
    state,
    iteration,
    planText,
    plan: IterationPlanSchema.parse(JSON.parse(planText)),
    tasks: await deps.runs.listTasks(runId),
    run: await deps.runs.getRun(runId),
  };
}

/** Stores the run and prepares its next iteration. */
async function prepared(setup: Setup) {
  await stored(setup);
  return prepare(setup.runId);
}

/** The plan's review section (plan-control), if it has one. */
function reviewSectionOf(plan: IterationPlan) {
  return plan.control?.sections.find((section) => section.kind === 'review');
}

const LAST_REVIEW = 'This is the last review';
const NOT_LAST_REVIEW = 'The story completes once the gates pass without findings.';

const taskOf =
  (runId: string) =>
  (taskId: string, priority: number, overrides: Parameters<typeof makeTask>[0] = {}) =>
    makeTask({ runId, taskId, title: `Story ${taskId}`, priority, ...overrides });

describe('Function: advanceStep, planning', () => {
  describe('a task in review', () => {
    it('puts the review section in the plan of the task in review, ahead of a higher-priority open one', async () => {
      // Prepare
      const runId = nextRunId('review');
      const task = taskOf(runId);
      const tasks = [
        task('US-001', 1),
        task('US-002', 2, {
          status: 'in_review',
          attempts: 1,
          lastIteration: 6,
          review: { findings: [missingTests, audit], iteration: 6 },
        }),
      ];

      // Act
      const { plan, state } = await prepared({ runId, tasks });

      // Assess
      expect(state).toStrictEqual({
        runId,
        segment: 1,
        iteration: 7,
        action: 'continue',
        reason: '0 of 2 stories pass, 1 in review',
        planned: true,
      });
      expect(plan.story.id).toBe('US-002');
      expect(plan.control).toMatchObject({
        mode: 'reviewer',
        why: 'gates passed: review before completing',
      });
      const review = reviewSectionOf(plan);
      expect(review?.title).toBe('Review findings to address');
      expect(review?.body).toContain(LAST_REVIEW);
      expect(review?.body).toContain(
        [
          '- [missing tests] 12 source lines added in 1 file (src/a.ts) and no test file changed',
          '- [security] audit: 2 moderate vulnerabilities reported (not blocking)',
        ].join('\n'),
      );
    });

    it.each([
      [1, 0, true],
      [2, 0, false],
      [2, 1, true],
      [3, 1, false],
    ])(
      'with maxReviewIterations %i after %i reviews, the plan says last: %s',
      async (maxReviewIterations, reviews, last) => {
        // Prepare
        const runId = nextRunId(`last-${maxReviewIterations}-${reviews}`);
        const tasks = [
          taskOf(runId)('US-001', 1, {
            status: 'in_review',
            attempts: 1 + reviews,
            lastIteration: 6,
            review: { findings: [missingTests], reviews, iteration: 6 },
          }),
        ];

        // Act
        const { plan } = await prepared({
          runId,
          tasks,
          config: { control: { quality: { maxReviewIterations } } },
        });

        // Assess
        const body = reviewSectionOf(plan)?.body;
        expect(body).toContain(last ? LAST_REVIEW : NOT_LAST_REVIEW);
        expect(body).not.toContain(last ? NOT_LAST_REVIEW : LAST_REVIEW);
      },
    );

    it('writes no review for a task that is not in review, even one that kept findings', async () => {
      // Prepare: US-001 completed with its findings kept; US-002 failed its review iteration.
      const runId = nextRunId('no-review');
      const task = taskOf(runId);
      const tasks = [
        task('US-001', 1, {
          status: 'complete',
          lastIteration: 5,
          review: { findings: [missingTests], reviews: 1, iteration: 5 },
        }),
        task('US-002', 2, {
          status: 'in_progress',
          attempts: 2,
          lastIteration: 6,
          review: { findings: [audit], reviews: 1, iteration: 5 },
        }),
      ];

      // Act
      const { plan } = await prepared({ runId, tasks });

      // Assess
      expect(plan.story.id).toBe('US-002');
      expect(plan.control?.mode).not.toBe('reviewer');
      expect(reviewSectionOf(plan)).toBeUndefined();
    });
  });

  describe('reset to a checkpoint', () => {
    it('reopens what passed after the checkpoint, in review or complete, dropping their findings', async () => {
      // Prepare: the checkpoint is at iteration 4.
      const runId = nextRunId('reset');
      const task = taskOf(runId);
      const tasks = [
        // Complete at the checkpoint, with findings kept: stays as it is.
        task('US-001', 1, {
          status: 'complete',
          lastIteration: CHECKPOINT_ITERATION,
          completedAt: '2025-01-15T10:30:00.000Z',
          review: { findings: [missingTests], reviews: 1, iteration: CHECKPOINT_ITERATION },
        }),
        // Complete just after it, with findings kept: open again, findings gone.
        task('US-002', 2, {
          status: 'complete',
          lastIteration: CHECKPOINT_ITERATION + 1,
          completedAt: '2025-01-15T10:40:00.000Z',
          review: { findings: [audit], reviews: 1, iteration: CHECKPOINT_ITERATION + 1 },
        }),
        // In review from a pass just after it: open again, findings gone.
        task('US-003', 3, {
          status: 'in_review',
          attempts: 1,
          lastIteration: CHECKPOINT_ITERATION + 2,
          review: { findings: [missingTests], iteration: CHECKPOINT_ITERATION + 1 },
        }),
        // In review from a pass at the checkpoint (its last iteration, after it, was cancelled).
        task('US-004', 4, {
          status: 'in_review',
          attempts: 1,
          lastIteration: CHECKPOINT_ITERATION + 2,
          review: { findings: [audit], iteration: CHECKPOINT_ITERATION },
        }),
      ];

      // Act
      const { tasks: after, run, plan } = await prepared({ runId, tasks, reset: true });

      // Assess
      const byId = new Map(after.map((candidate) => [candidate.taskId, candidate]));
      expect(byId.get('US-001')).toMatchObject({ status: 'complete', version: 1 });
      expect(byId.get('US-001')?.review?.findings).toEqual([missingTests]);
      expect(byId.get('US-002')).toMatchObject({ status: 'in_progress', version: 2 });
      expect(byId.get('US-002')).not.toHaveProperty('review');
      expect(byId.get('US-002')).not.toHaveProperty('completedAt');
      expect(byId.get('US-003')).toMatchObject({ status: 'in_progress', version: 2 });
      expect(byId.get('US-003')).not.toHaveProperty('review');
      expect(byId.get('US-004')).toMatchObject({ status: 'in_review', version: 1 });
      expect(run?.storiesPassed).toBe(1);
      // The story still in review is continued first, with its findings.
      expect(plan.story.id).toBe('US-004');
      expect(plan.control?.mode).toBe('reviewer');
      expect(reviewSectionOf(plan)?.body).toContain(
        '- [security] audit: 2 moderate vulnerabilities reported (not blocking)',
      );
      expect(reviewSectionOf(plan)?.body).not.toContain('[missing tests]');
      expect(plan.checkpoints?.resetTo).toMatchObject({ tag: checkpointOf(runId).tag });
    });

    it('drops findings of an iteration after the checkpoint from a task that left review', async () => {
      // Prepare
      const runId = nextRunId('reset-left-review');
      const task = taskOf(runId);
      const tasks = [
        task('US-001', 1, {
          status: 'in_progress',
          attempts: 2,
          lastIteration: CHECKPOINT_ITERATION + 2,
          review: { findings: [audit], reviews: 1, iteration: CHECKPOINT_ITERATION + 1 },
        }),
        task('US-002', 2, {
          status: 'blocked',
          attempts: 4,
          lastIteration: CHECKPOINT_ITERATION,
          block: { reason: 'tests keep failing', at: '2025-01-15T10:30:00.000Z' },
          review: { findings: [missingTests], reviews: 1, iteration: CHECKPOINT_ITERATION - 1 },
        }),
      ];

      // Act
      const { tasks: after } = await prepared({ runId, tasks, reset: true });

      // Assess
      expect(after[0]).toMatchObject({ status: 'in_progress', version: 2 });
      expect(after[0]).not.toHaveProperty('review');
      // Findings from before the checkpoint are about code the reset keeps.
      expect(after[1]).toMatchObject({ status: 'blocked', version: 1 });
      expect(after[1]?.review?.findings).toEqual([missingTests]);
    });

    it('leaves every task as it is when no reset is pending', async () => {
      // Prepare
      const runId = nextRunId('no-reset');
      const tasks = [
        taskOf(runId)('US-001', 1, {
          status: 'in_review',
          attempts: 1,
          lastIteration: 6,
          review: { findings: [audit], iteration: 6 },
        }),
      ];

      // Act
      const { tasks: after } = await prepared({ runId, tasks, reset: false });

      // Assess
      expect(after[0]).toMatchObject({ status: 'in_review', version: 1 });
      expect(after[0]?.review?.findings).toEqual([audit]);
    });

    it('writes the same plan again when retried after a reset, reopening nothing twice', async () => {
      // Prepare: a first attempt reopened US-002 and wrote the plan; its reply was lost.
      const runId = nextRunId('reset-retry');
      const task = taskOf(runId);
      const tasks = [
        task('US-001', 1, {
          status: 'complete',
          lastIteration: CHECKPOINT_ITERATION + 1,
          completedAt: '2025-01-15T10:40:00.000Z',
        }),
        task('US-002', 2, {
          status: 'in_review',
          attempts: 1,
          lastIteration: CHECKPOINT_ITERATION + 2,
          review: { findings: [missingTests], iteration: CHECKPOINT_ITERATION + 2 },
        }),
      ];
      const first = await prepared({ runId, tasks, reset: true });

      // Act: Step Functions delivers the step again.
      const again = await prepare(runId);

      // Assess: the same iteration and the same plan bytes (S3 accepts the identical put).
      expect(again.state).toStrictEqual(first.state);
      expect(again.planText).toBe(first.planText);
      expect(again.tasks).toEqual(first.tasks);
      expect(again.run).toEqual(first.run);
      expect(first.tasks.map((candidate) => [candidate.status, candidate.version])).toEqual([
        ['in_progress', 2],
        ['in_progress', 2],
      ]);
      expect(first.run).toMatchObject({ iterationsStarted: 7, storiesPassed: 0, version: 2 });
    });
  });
});
