import { describe, expect, it } from 'vitest';
import { findingLine, reviewWork } from '../../lambdas/core/control/quality/review-section.js';
import { type ReviewFinding } from '../../lambdas/core/schemas/review.js';
import { decideNext, nextTask } from '../../lambdas/core/loop/decide-next.js';
import { nextTaskState } from '../../lambdas/core/loop/task-progress.js';
import {
  IterationResultSchema,
  type IterationResult,
} from '../../lambdas/core/schemas/iteration-result.js';
import { TaskRecordSchema, type TaskRecord } from '../../lambdas/core/schemas/task.js';
import { type IterationOutcome } from '../../lambdas/core/schemas/outcome.js';
import { makeRun, makeTask } from '../support/records.js';

const NOW = '2025-01-15T12:00:00.000Z';
const missingTests: ReviewFinding = {
  kind: 'missing_tests',
  message: '12 source lines added in 1 file (src/cart.ts) and no test file changed',
};
const warnings: ReviewFinding = { kind: 'warnings', gate: 'lint', message: '3 warnings (eslint)' };

function result(
  iteration: number,
  outcome: IterationOutcome,
  findings: ReviewFinding[] = [],
): IterationResult {
  return IterationResultSchema.parse({
    runId: 'run-1',
    iteration,
    taskId: 'US-001',
    outcome,
    durations: { agentMs: 1, gatesMs: 1, runnerMs: 1 },
    startedAt: NOW,
    endedAt: NOW,
    ...(findings.length > 0 ? { review: { findings } } : {}),
  });
}

const limits = (maxReviewIterations?: number) => ({
  maxTaskAttempts: 3,
  previousErrors: [],
  ...(maxReviewIterations === undefined ? {} : { maxReviewIterations }),
});

/** The task after each result in turn. */
function play(task: TaskRecord, results: IterationResult[], maxReviewIterations?: number) {
  return results.reduce(
    (current, next) => nextTaskState(current, next, NOW, limits(maxReviewIterations)),
    task,
  );
}

describe('Schema: TaskRecordSchema with in_review', () => {
  it('still reads a stored record without a review', () => {
    // A record as DynamoDB holds it from before the review existed.
    const stored: unknown = JSON.parse(JSON.stringify(makeTask({ status: 'complete' })));
    expect(stored).not.toHaveProperty('review');
    expect(TaskRecordSchema.parse(stored)).not.toHaveProperty('review');
  });

  it('reads a task in review with its findings', () => {
    const task = makeTask({
      status: 'in_review',
      review: { findings: [missingTests], iteration: 2 },
    });
    expect(task.review).toEqual({ findings: [missingTests], reviews: 0, iteration: 2 });
  });

  it('refuses an iteration result with an empty review', () => {
    expect(() =>
      IterationResultSchema.parse({ ...result(1, 'passed'), review: { findings: [] } }),
    ).toThrow();
  });
});

describe('Function: nextTaskState — review', () => {
  const started = makeTask({ status: 'in_progress', attempts: 1 });

  it('completes a task whose iteration passed without findings, as before', () => {
    const next = nextTaskState(started, result(2, 'passed'), NOW, limits());
    expect(next).toMatchObject({ status: 'complete', completedAt: NOW, attempts: 2 });
    expect(next).not.toHaveProperty('review');
  });

  it('sends a task whose iteration passed with findings to review, a new stint', () => {
    // Act
    const next = nextTaskState(started, result(2, 'passed', [missingTests]), NOW, limits());

    // Assess
    expect(next).toMatchObject({
      status: 'in_review',
      attempts: 2,
      stintStartAttempts: 2,
      lastOutcome: 'passed',
      review: { findings: [missingTests], reviews: 0, iteration: 2 },
    });
    expect(next).not.toHaveProperty('completedAt');
  });

  it('completes the task when its review iteration passes without findings', () => {
    const next = play(started, [result(2, 'passed', [missingTests]), result(3, 'passed')]);
    expect(next).toMatchObject({
      status: 'complete',
      completedAt: NOW,
      review: { findings: [], reviews: 1, iteration: 3 },
    });
  });

  it.each([
    [0, 'complete', 0],
    [1, 'complete', 1],
    [2, 'in_review', 1],
    [3, 'in_review', 1],
  ] as const)(
    'with maxReviewIterations %i, a review that still finds something leaves it %s',
    (max, status, reviews) => {
      const afterOne = play(
        started,
        [result(2, 'passed', [missingTests]), result(3, 'passed', [warnings])].slice(
          0,
          max === 0 ? 1 : 2,
        ),
        max,
      );
      expect(afterOne.status).toBe(status);
      expect(afterOne.review?.reviews).toBe(reviews);
      // Whatever the limit, the latest findings stay on the record.
      expect(afterOne.review?.findings).toEqual(max === 0 ? [missingTests] : [warnings]);
    },
  );

  it('completes at the limit after exactly maxReviewIterations review iterations', () => {
    const findings = [warnings];
    const passes = [2, 3, 4, 5].map((iteration) => result(iteration, 'passed', findings));
    const statuses = passes.map((_, index) => play(started, passes.slice(0, index + 1), 2).status);
    expect(statuses).toEqual(['in_review', 'in_review', 'complete', 'complete']);
  });

  it('uses the default of one review iteration when the limit is not given', () => {
    const next = play(started, [
      result(2, 'passed', [missingTests]),
      result(3, 'passed', [missingTests]),
    ]);
    expect(next).toMatchObject({ status: 'complete', review: { reviews: 1 } });
  });

  it.each([
    ['gates_failed', 1, 'complete'],
    ['no_changes', 1, 'complete'],
    ['gates_failed', 2, 'in_review'],
    ['no_changes', 2, 'in_review'],
  ] as const)(
    'spends a review on a review iteration that ended %s (limit %i): the task is %s, the findings kept',
    (outcome, max, status) => {
      // Act
      const next = play(started, [result(2, 'passed', [missingTests]), result(3, outcome)], max);

      // Assess: the story passed its blocking gates at iteration 2; its commit stands.
      expect(next).toMatchObject({
        status,
        review: { findings: [missingTests], reviews: 1, iteration: 2 },
      });
    },
  );

  it('completes at the limit when the last review iteration passes after a failed one', () => {
    const next = play(
      started,
      [
        result(2, 'passed', [missingTests]),
        result(3, 'gates_failed'),
        result(4, 'passed', [warnings]),
      ],
      2,
    );
    expect(next).toMatchObject({
      status: 'complete',
      review: { findings: [warnings], reviews: 2, iteration: 4 },
    });
  });

  it('never blocks a task in review: failed review iterations are spent reviews', () => {
    const failures = [3, 4, 5, 6].map((iteration) => result(iteration, 'agent_failed'));
    const states = failures.map(
      (_, index) =>
        play(started, [result(2, 'passed', [missingTests]), ...failures.slice(0, index + 1)], 4)
          .status,
    );
    expect(states).toEqual(['in_review', 'in_review', 'in_review', 'complete']);
  });

  it('keeps a task in review when the iteration failed for a reason not its own', () => {
    const next = play(started, [result(2, 'passed', [missingTests]), result(3, 'runner_error')]);
    expect(next).toMatchObject({ status: 'in_review', review: { reviews: 0 } });
  });

  it('never decomposes a task whose review failed', () => {
    const big = makeTask({
      status: 'in_progress',
      attempts: 1,
      story: {
        id: 'US-001',
        title: 'Export',
        description: 'Export todos.',
        acceptanceCriteria: ['Writes a header', 'Writes rows', 'Escapes commas', 'Tests pass'],
        priority: 1,
        passes: false,
        notes: '',
      },
    });
    const timeout = { ...result(3, 'agent_timeout'), cause: 'the agent timed out' };
    const reviewed = play(big, [result(2, 'passed', [missingTests]), timeout]);
    const fresh = nextTaskState(big, timeout, NOW, limits());
    expect(fresh.subtasks).toBeDefined();
    expect(reviewed.subtasks).toBeUndefined();
    // Back in progress after the failed review, it is still not split.
    expect(play(reviewed, [{ ...timeout, iteration: 4 }]).subtasks).toBeUndefined();
  });

  it('holds a decomposed story for review only with its last subtask', () => {
    const split = makeTask({
      status: 'in_progress',
      subtasks: [
        { id: 'US-001.1', title: 'a', acceptanceCriteria: [], status: 'open' },
        { id: 'US-001.2', title: 'b', acceptanceCriteria: [], status: 'open' },
      ],
    });
    const first = nextTaskState(
      split,
      { ...result(1, 'passed', [missingTests]), subtaskId: 'US-001.1' },
      NOW,
      limits(),
    );
    const last = nextTaskState(
      first,
      { ...result(2, 'passed', [missingTests]), subtaskId: 'US-001.2' },
      NOW,
      limits(),
    );
    expect(first.status).toBe('in_progress');
    expect(first.review).toBeUndefined();
    expect(last.status).toBe('in_review');
    expect(last.subtasks?.every((subtask) => subtask.status === 'complete')).toBe(true);
  });

  it('starts a new stint after a passed subtask: failures are counted in a row', () => {
    const split = makeTask({
      status: 'in_progress',
      subtasks: [
        { id: 'US-001.1', title: 'a', acceptanceCriteria: [], status: 'open' },
        { id: 'US-001.2', title: 'b', acceptanceCriteria: [], status: 'open' },
      ],
    });
    const next = play(split, [
      result(1, 'gates_failed'),
      { ...result(2, 'passed'), subtaskId: 'US-001.1' },
      result(3, 'gates_failed'),
      result(4, 'gates_failed'),
    ]);
    expect(next).toMatchObject({ status: 'in_progress', attempts: 4, stintStartAttempts: 2 });
    expect(play(next, [result(5, 'gates_failed')]).status).toBe('blocked');
  });
});

describe('Function: nextTask — review first', () => {
  it('continues a task in review before any other open task', () => {
    const tasks = [
      makeTask({ taskId: 'US-001', priority: 1, status: 'in_progress' }),
      makeTask({ taskId: 'US-003', priority: 3, status: 'in_review' }),
      makeTask({ taskId: 'US-002', priority: 2 }),
    ];
    expect(nextTask(tasks)?.taskId).toBe('US-003');
  });

  it('takes the tasks in review by priority', () => {
    const tasks = [
      makeTask({ taskId: 'US-002', priority: 2, status: 'in_review' }),
      makeTask({ taskId: 'US-001', priority: 1, status: 'in_review' }),
    ];
    expect(nextTask(tasks)?.taskId).toBe('US-001');
  });

  it('keeps the old order without a task in review', () => {
    const tasks = [
      makeTask({ taskId: 'US-002', priority: 2, status: 'in_progress' }),
      makeTask({ taskId: 'US-001', priority: 1 }),
    ];
    expect(nextTask(tasks)?.taskId).toBe('US-001');
  });
});

describe('Function: decideNext — review', () => {
  const limits = { maxIterations: 10, iterationsPerSegment: 25, maxConsecutiveFailures: 5 };
  const done = makeTask({ taskId: 'US-001', status: 'complete' });

  it('does not complete the run while a story is in review', () => {
    const run = makeRun({ config: { limits }, iterationsStarted: 2 });
    const next = decideNext(run, [done, makeTask({ taskId: 'US-002', status: 'in_review' })]);
    expect(next).toEqual({ action: 'continue', reason: '1 of 2 stories pass, 1 in review' });
  });

  it('completes once the reviewed story is complete', () => {
    const run = makeRun({ config: { limits }, iterationsStarted: 3 });
    const next = decideNext(run, [done, makeTask({ taskId: 'US-002', status: 'complete' })]);
    expect(next.action).toBe('complete');
  });

  it('does not count a story in review as blocked', () => {
    const run = makeRun({ config: { limits }, iterationsStarted: 3 });
    const tasks = [
      makeTask({
        taskId: 'US-001',
        status: 'blocked',
        timesBlocked: 2,
        block: { reason: '3 attempts failed', at: NOW },
      }),
      makeTask({
        taskId: 'US-002',
        status: 'in_review',
        review: { findings: [], reviews: 0, iteration: 2 },
      }),
    ];
    expect(decideNext(run, tasks).action).toBe('continue');
  });
});

describe('Function: reviewWork', () => {
  const inReview = (reviews: number) =>
    makeTask({
      status: 'in_review',
      review: { findings: [warnings, missingTests], reviews, iteration: 2 },
    });

  it('gives the findings as lines', () => {
    expect(reviewWork(inReview(0), { maxReviewIterations: 2 })).toEqual({
      lines: [
        '[warnings] lint: 3 warnings (eslint)',
        '[missing tests] 12 source lines added in 1 file (src/cart.ts) and no test file changed',
      ],
      last: false,
    });
  });

  it.each([
    [0, 1, true],
    [0, 2, false],
    [1, 2, true],
  ])('after %i reviews with a limit of %i, last is %s', (reviews, max, last) => {
    expect(reviewWork(inReview(reviews), { maxReviewIterations: max })?.last).toBe(last);
  });

  it('gives nothing for a task not in review, or in review without findings', () => {
    const settings = { maxReviewIterations: 1 };
    expect(
      reviewWork(
        makeTask({ status: 'complete', review: { findings: [warnings], iteration: 2 } }),
        settings,
      ),
    ).toBeUndefined();
    expect(
      reviewWork(
        makeTask({ status: 'in_review', review: { findings: [], iteration: 2 } }),
        settings,
      ),
    ).toBeUndefined();
  });

  it('writes a finding without a gate without one', () => {
    expect(findingLine({ kind: 'advisory_gate', message: 'x' })).toBe('[advisory gate] x');
  });
});
