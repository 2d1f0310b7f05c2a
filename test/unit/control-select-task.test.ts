import { describe, expect, it } from 'vitest';
import {
  nextBestTask,
  overBudgetReason,
  shouldSkipTask,
  type BlockedState,
  type InProgressState,
  type TaskState,
  type TrackedTask,
} from '../../lambdas/core/control/tasks/index.js';

const START = '2025-03-01T10:00:00.000Z';
const at = (minutes: number) => new Date(Date.parse(START) + minutes * 60_000);
const NOW = at(10);

const working = (overrides: Partial<InProgressState> = {}): InProgressState => ({
  status: 'in_progress',
  startedAt: START,
  startedIteration: 1,
  iterationsSpent: 1,
  lastAttemptSummary: '',
  attempts: 0,
  recentErrors: [],
  timesBlocked: 0,
  ...overrides,
});
const blockedState = (overrides: Partial<BlockedState> = {}): BlockedState => ({
  status: 'blocked',
  reason: '3 failed attempts (limit 3); last: gates_failed',
  attempts: 3,
  lastError: 'error TS2322',
  blockedAt: START,
  timesBlocked: 1,
  ...overrides,
});
const done = (minutes: number): TaskState => ({
  status: 'complete',
  completedAt: at(minutes).toISOString(),
  iteration: 3,
});

const task = (
  taskId: string,
  state: TaskState,
  priority = 1,
  order = 0,
  extra: Partial<TrackedTask> = {},
): TrackedTask => ({
  taskId,
  priority,
  order,
  state,
  story: {
    id: taskId,
    title: taskId,
    description: '',
    acceptanceCriteria: [],
    priority,
    passes: false,
  },
  ...extra,
});

describe('Function: overBudgetReason', () => {
  it.each([
    [7, undefined],
    [8, 'spent 8 iterations (budget 8)'],
    [9, 'spent 9 iterations (budget 8)'],
  ])('with %i iterations spent of 8: %s', (spent, expected) => {
    expect(overBudgetReason(working({ iterationsSpent: spent }), NOW)).toBe(expected);
  });

  it.each([
    [29.99, undefined],
    [30, undefined],
    [30.01, 'in progress for 30.0 minutes (budget 30)'],
    [31, 'in progress for 31 minutes (budget 30)'],
  ])('after %f minutes of 30: %s', (minutes, expected) => {
    expect(overBudgetReason(working(), at(minutes))).toBe(expected);
  });

  it('applies to a task in review and to no other state', () => {
    const review: TaskState = {
      ...working({ iterationsSpent: 8 }),
      status: 'in_review',
      testsPassing: true,
      lintClean: true,
    };
    expect(overBudgetReason(review, NOW)).toBe('spent 8 iterations (budget 8)');
    expect(overBudgetReason({ status: 'not_started' }, at(1000))).toBeUndefined();
    expect(overBudgetReason(blockedState(), at(1000))).toBeUndefined();
  });

  it('uses configured budgets', () => {
    expect(
      overBudgetReason(working({ iterationsSpent: 2 }), NOW, { maxTaskIterations: 3 }),
    ).toBeUndefined();
    expect(
      overBudgetReason(working({ iterationsSpent: 3 }), NOW, { maxTaskIterations: 3 }),
    ).toBeDefined();
    expect(overBudgetReason(working(), at(5.5), { taskTimeoutMinutes: 5 })).toBe(
      'in progress for 5.5 minutes (budget 5)',
    );
  });
});

describe('Function: shouldSkipTask', () => {
  it.each([
    [2, false],
    [3, true],
    [4, true],
  ])('skips a blocked task with %i failed attempts: %s', (attempts, expected) => {
    expect(shouldSkipTask(blockedState({ attempts }), NOW)).toBe(expected);
  });

  it('skips a task in progress only when it is over budget', () => {
    expect(shouldSkipTask(working({ iterationsSpent: 7 }), at(30))).toBe(false);
    expect(shouldSkipTask(working({ iterationsSpent: 8 }), NOW)).toBe(true);
    expect(shouldSkipTask(working(), at(30.5))).toBe(true);
  });

  it('never skips a task not started or complete', () => {
    expect(shouldSkipTask({ status: 'not_started' }, NOW)).toBe(false);
    expect(shouldSkipTask(done(1), NOW)).toBe(false);
  });

  it('honours a configured attempt limit', () => {
    expect(shouldSkipTask(blockedState({ attempts: 3 }), NOW, { maxTaskAttempts: 4 })).toBe(false);
  });
});

describe('Function: nextBestTask', () => {
  it('continues a task in progress before starting a higher-priority one', () => {
    // Prepare
    const tasks = [
      task('US-001', { status: 'not_started' }, 1, 0),
      task('US-003', working(), 3, 2),
    ];

    // Act
    const choice = nextBestTask(tasks, NOW);

    // Assess
    expect(choice).toEqual({
      found: true,
      taskId: 'US-003',
      rule: 'continue',
      why: 'continuing: in progress since iteration 1, 1 iteration spent, 0 failed',
      overBudget: [],
    });
  });

  it('continues a task in review before one in progress', () => {
    const review: TaskState = {
      ...working(),
      status: 'in_review',
      testsPassing: true,
      lintClean: true,
    };
    const choice = nextBestTask([task('US-001', working(), 1), task('US-002', review, 2)], NOW);
    expect(choice).toMatchObject({ taskId: 'US-002', rule: 'continue' });
  });

  it('passes over a task over budget, reports it, and starts the next not started', () => {
    // Prepare
    const tasks = [
      task('US-001', working({ iterationsSpent: 8 })),
      task('US-002', { status: 'not_started' }, 2),
    ];

    // Act
    const choice = nextBestTask(tasks, NOW);

    // Assess
    expect(choice).toMatchObject({
      found: true,
      taskId: 'US-002',
      rule: 'start',
      overBudget: [{ taskId: 'US-001', why: 'spent 8 iterations (budget 8)' }],
    });
  });

  it('starts tasks by priority, then prd order', () => {
    const tasks = [
      task('US-003', { status: 'not_started' }, 2, 0),
      task('US-002', { status: 'not_started' }, 1, 5),
      task('US-001', { status: 'not_started' }, 1, 3),
    ];
    expect(nextBestTask(tasks, NOW)).toMatchObject({
      taskId: 'US-001',
      rule: 'start',
      why: 'the first task not started, by priority (1) then prd order (3)',
    });
  });

  it('continues a decomposed task with its next open subtask', () => {
    // Prepare
    const sub = (n: number, state: TaskState) => ({
      id: `US-001.${n}`,
      title: `part ${n}`,
      acceptanceCriteria: [],
      state,
    });
    const decomposed = task('US-001', working(), 1, 0, {
      subtasks: [
        sub(1, done(1)),
        sub(2, { status: 'not_started' }),
        sub(3, { status: 'not_started' }),
      ],
    });

    // Act
    const choice = nextBestTask([decomposed], NOW);

    // Assess
    expect(choice).toMatchObject({ taskId: 'US-001', subtaskId: 'US-001.2' });
    expect(choice.why).toContain('next open subtask US-001.2 (2 of 3)');
  });

  it('starts a decomposed task at its first open subtask, and names none when all are done', () => {
    const sub = (n: number, state: TaskState) => ({
      id: `US-001.${n}`,
      title: `part ${n}`,
      acceptanceCriteria: [],
      state,
    });
    const fresh = task('US-001', { status: 'not_started' }, 1, 0, {
      subtasks: [sub(1, { status: 'not_started' }), sub(2, { status: 'not_started' })],
    });
    expect(nextBestTask([fresh], NOW)).toMatchObject({ rule: 'start', subtaskId: 'US-001.1' });
    const allDone = { ...fresh, state: working(), subtasks: [sub(1, done(1)), sub(2, done(2))] };
    expect(nextBestTask([allDone], NOW)).not.toHaveProperty('subtaskId');
  });

  describe('retrying blocked tasks', () => {
    it('prefers a task whose block names a task completed since', () => {
      // Prepare: US-003 was blocked longer ago, but US-002 waited for US-001
      const tasks = [
        task('US-001', done(20)),
        task(
          'US-002',
          blockedState({ reason: 'needs the schema from US-001', blockedAt: at(10).toISOString() }),
          2,
        ),
        task('US-003', blockedState({ blockedAt: at(5).toISOString() }), 3),
      ];

      // Act
      const choice = nextBestTask(tasks, at(30));

      // Assess
      expect(choice).toMatchObject({ found: true, taskId: 'US-002', rule: 'retry_blocked' });
      expect(choice.why).toBe(
        'retrying a blocked task: blocked on US-001, which is now complete (was: needs the schema from US-001)',
      );
    });

    it('does not count a completion from before the block', () => {
      const tasks = [
        task('US-001', done(5)),
        task(
          'US-002',
          blockedState({ reason: 'needs US-001', blockedAt: at(10).toISOString() }),
          2,
        ),
        task('US-003', blockedState({ blockedAt: at(6).toISOString() }), 3),
      ];
      // Neither is freed, neither saw a completion since: the one blocked longest ago wins.
      expect(nextBestTask(tasks, at(30))).toMatchObject({ taskId: 'US-003' });
    });

    it('matches the completed id as a whole word (US-1 is not US-10)', () => {
      const tasks = [
        task('US-1', done(20)),
        task(
          'US-2',
          blockedState({ lastError: 'import from US-10 failed', blockedAt: at(10).toISOString() }),
          2,
        ),
        task(
          'US-3',
          blockedState({ lastError: 'waits for US-1.', blockedAt: at(12).toISOString() }),
          3,
        ),
      ];
      expect(nextBestTask(tasks, at(30))).toMatchObject({ taskId: 'US-3' });
    });

    it('prefers a task that saw any completion since its block over one blocked longer ago', () => {
      const tasks = [
        task('US-001', done(20)),
        task('US-002', blockedState({ blockedAt: at(25).toISOString() }), 2),
        task('US-003', blockedState({ blockedAt: at(15).toISOString() }), 3),
      ];
      const choice = nextBestTask(tasks, at(30));
      expect(choice).toMatchObject({ taskId: 'US-003' });
      expect(choice.why).toContain('US-001 completed since it was blocked');
    });

    it('breaks equal block times by priority', () => {
      const tasks = [task('US-005', blockedState(), 5), task('US-004', blockedState(), 4)];
      expect(nextBestTask(tasks, NOW)).toMatchObject({
        taskId: 'US-004',
        why: expect.stringContaining('blocked longest ago'),
      });
    });

    it('retries only tasks blocked fewer than maxTimesBlocked times', () => {
      const once = [task('US-001', blockedState({ timesBlocked: 1 }))];
      const twice = [task('US-001', blockedState({ timesBlocked: 2 }))];
      expect(nextBestTask(once, NOW)).toMatchObject({ found: true });
      expect(nextBestTask(twice, NOW)).toEqual({
        found: false,
        why: 'no task can be worked on: 1 open task is over budget or blocked 2 times',
        overBudget: [],
      });
      expect(nextBestTask(twice, NOW, { maxTimesBlocked: 3 })).toMatchObject({ found: true });
    });

    it('starts a task not started before retrying a blocked one', () => {
      const tasks = [task('US-001', blockedState()), task('US-002', { status: 'not_started' }, 9)];
      expect(nextBestTask(tasks, NOW)).toMatchObject({ taskId: 'US-002', rule: 'start' });
    });
  });

  it('finds nothing when every task is complete', () => {
    expect(nextBestTask([task('US-001', done(1))], NOW)).toEqual({
      found: false,
      why: 'every task is complete',
      overBudget: [],
    });
  });

  it('finds nothing when the only open tasks are over budget, and lists them', () => {
    const tasks = [task('US-001', working({ iterationsSpent: 9 })), task('US-002', working(), 2)];
    expect(nextBestTask(tasks, at(31))).toMatchObject({
      found: false,
      why: 'no task can be worked on: 2 open tasks are over budget or blocked 2 times',
      overBudget: [
        { taskId: 'US-001', why: 'spent 9 iterations (budget 8)' },
        { taskId: 'US-002', why: 'in progress for 31 minutes (budget 30)' },
      ],
    });
  });
});
