import { describe, expect, it } from 'vitest';
import { InvalidTransitionError } from '../../lambdas/core/errors.js';
import {
  applyTaskEvent,
  InvalidTaskTransitionError,
  nextOpenSubtask,
  TaskStateSchema,
  TaskTransitionSchema,
  TrackedTaskSchema,
  type InProgressState,
  type TaskEvent,
  type TaskState,
} from '../../lambdas/core/control/tasks/index.js';

const T0 = '2025-03-01T10:00:00.000Z';
const T1 = '2025-03-01T10:20:00.000Z';

const notStarted: TaskState = { status: 'not_started' };
const inProgress = (overrides: Partial<InProgressState> = {}): InProgressState => ({
  status: 'in_progress',
  startedAt: T0,
  startedIteration: 4,
  iterationsSpent: 0,
  lastAttemptSummary: '',
  attempts: 0,
  recentErrors: [],
  timesBlocked: 0,
  ...overrides,
});
const inReview = (overrides: Partial<InProgressState> = {}): TaskState => ({
  ...inProgress(overrides),
  status: 'in_review',
  testsPassing: true,
  lintClean: true,
});
const blocked: TaskState = {
  status: 'blocked',
  reason: 'waiting for US-001',
  attempts: 1,
  lastError: 'Cannot find module ./db.js',
  blockedAt: T0,
  timesBlocked: 1,
};
const complete: TaskState = { status: 'complete', completedAt: T0, iteration: 9 };

const when = { iteration: 5, now: T1 };
const started: TaskEvent = { type: 'started', ...when };
const ended = (
  outcome: 'passed' | 'gates_failed' | 'interrupted' | 'agent_timeout',
  error?: string,
): TaskEvent => ({
  type: 'iteration_ended',
  ...when,
  outcome,
  summary: `iteration ended ${outcome}`,
  ...(error === undefined ? {} : { error }),
});
const gatesPassed: TaskEvent = {
  type: 'gates_passed',
  ...when,
  testsPassing: true,
  lintClean: false,
};
const reviewPassed: TaskEvent = { type: 'review_passed', ...when };
const blockedEvent: TaskEvent = { type: 'blocked', ...when, reason: 'needs an API key' };
const unblocked: TaskEvent = { type: 'unblocked', ...when };

describe('Schema: TaskStateSchema', () => {
  it('parses each state and fills the defaults of a stored in-progress state', () => {
    // Prepare
    const stored = { ...inProgress(), recentErrors: undefined, timesBlocked: undefined };

    // Act
    const parsed = TaskStateSchema.parse(stored);

    // Assess
    expect(parsed).toEqual(inProgress());
    for (const state of [notStarted, inReview(), blocked, complete])
      expect(TaskStateSchema.parse(state)).toEqual(state);
  });

  it('refuses a state without its fields and an unknown status', () => {
    expect(TaskStateSchema.safeParse({ status: 'blocked', reason: 'x' }).success).toBe(false);
    expect(TaskStateSchema.safeParse({ status: 'paused' }).success).toBe(false);
    expect(TaskStateSchema.safeParse({ ...complete, completedAt: 'yesterday' }).success).toBe(
      false,
    );
  });
});

describe('Schema: TrackedTaskSchema', () => {
  const story = {
    id: 'US-002',
    title: 'Filter',
    description: 'Filter tasks',
    acceptanceCriteria: ['a', 'b'],
    priority: 2,
    passes: false,
  };
  const subtask = (n: number, state: TaskState = notStarted) => ({
    id: `US-002.${n}`,
    title: `part ${n}`,
    acceptanceCriteria: [`c${n}`],
    state,
  });

  it('accepts a task without subtasks and one with two or more', () => {
    const base = { taskId: 'US-002', priority: 2, order: 1, story, state: notStarted };
    expect(TrackedTaskSchema.parse(base).subtasks).toBeUndefined();
    expect(
      TrackedTaskSchema.parse({ ...base, subtasks: [subtask(1), subtask(2)] }).subtasks,
    ).toHaveLength(2);
  });

  it('refuses a single subtask and a subtask id without its position', () => {
    const base = { taskId: 'US-002', priority: 2, order: 1, story, state: notStarted };
    expect(TrackedTaskSchema.safeParse({ ...base, subtasks: [subtask(1)] }).success).toBe(false);
    expect(
      TrackedTaskSchema.safeParse({
        ...base,
        subtasks: [subtask(1), { ...subtask(2), id: 'US-002' }],
      }).success,
    ).toBe(false);
  });

  it('finds the first subtask not complete, or none', () => {
    const subtasks = [subtask(1, complete), subtask(2), subtask(3)];
    expect(nextOpenSubtask({ subtasks })).toEqual({ subtask: subtasks[1], position: 2 });
    expect(
      nextOpenSubtask({ subtasks: [subtask(1, complete), subtask(2, complete)] }),
    ).toBeUndefined();
    expect(nextOpenSubtask({})).toBeUndefined();
  });
});

describe('Function: applyTaskEvent', () => {
  describe('started', () => {
    it('starts a fresh stint from not started and records the move', () => {
      // Act
      const { state, transition } = applyTaskEvent(notStarted, started);

      // Assess
      expect(state).toEqual(inProgress({ startedAt: T1, startedIteration: 5 }));
      expect(TaskTransitionSchema.parse(transition)).toEqual({
        from: 'not_started',
        to: 'in_progress',
        event: 'started',
        iteration: 5,
        at: T1,
        detail: 'started in iteration 5',
      });
    });

    it.each([inProgress(), inReview(), blocked, complete])(
      'refuses to start a task that is $status',
      (from) => {
        expect(() => applyTaskEvent(from, started)).toThrow(InvalidTaskTransitionError);
      },
    );
  });

  describe('iteration_ended', () => {
    it('counts a passing iteration as spent but not as an attempt', () => {
      const { state } = applyTaskEvent(
        inProgress({ iterationsSpent: 2, attempts: 1 }),
        ended('passed'),
      );
      expect(state).toMatchObject({
        status: 'in_progress',
        iterationsSpent: 3,
        attempts: 1,
        lastAttemptSummary: 'iteration ended passed',
      });
    });

    it('counts neither budget nor attempt for an iteration the loop lost', () => {
      const { state, transition } = applyTaskEvent(
        inProgress({ iterationsSpent: 2, attempts: 1 }),
        ended('interrupted'),
      );
      expect(state).toMatchObject({ iterationsSpent: 2, attempts: 1 });
      expect(transition.detail).toContain('not counted');
    });

    it('records a failed attempt with its error, below the attempt limit', () => {
      // Act: the second failure of three allowed
      const { state, transition } = applyTaskEvent(
        inProgress({ attempts: 1, iterationsSpent: 1, recentErrors: ['first'] }),
        ended('gates_failed', 'src/a.ts(3,1): error TS2322'),
      );

      // Assess
      expect(state).toEqual(
        inProgress({
          attempts: 2,
          iterationsSpent: 2,
          lastAttemptSummary: 'iteration ended gates_failed',
          lastError: 'src/a.ts(3,1): error TS2322',
          recentErrors: ['first', 'src/a.ts(3,1): error TS2322'],
        }),
      );
      expect(transition).toMatchObject({ from: 'in_progress', to: 'in_progress' });
      expect(transition.detail).toMatch(/^failed attempt 2 of 3 \(gates_failed\)/);
    });

    it('blocks the task at exactly maxTaskAttempts failed attempts', () => {
      // Act
      const { state, transition } = applyTaskEvent(
        inProgress({ attempts: 2, timesBlocked: 1 }),
        ended('agent_timeout'),
      );

      // Assess
      expect(state).toEqual({
        status: 'blocked',
        reason: '3 failed attempts (limit 3); last: agent_timeout',
        attempts: 3,
        lastError: 'iteration ended agent_timeout',
        blockedAt: T1,
        timesBlocked: 2,
      });
      expect(transition).toMatchObject({ from: 'in_progress', to: 'blocked' });
    });

    it('honours a configured attempt limit on either side of it', () => {
      const four = { maxTaskAttempts: 4 };
      expect(
        applyTaskEvent(inProgress({ attempts: 2 }), ended('gates_failed'), four).state.status,
      ).toBe('in_progress');
      expect(
        applyTaskEvent(inProgress({ attempts: 3 }), ended('gates_failed'), four).state.status,
      ).toBe('blocked');
      expect(
        applyTaskEvent(inProgress({ attempts: 0 }), ended('gates_failed'), { maxTaskAttempts: 1 })
          .state.status,
      ).toBe('blocked');
    });

    it('keeps only the newest errors, each cut to maxErrorChars', () => {
      // Act
      const { state } = applyTaskEvent(
        inProgress({ recentErrors: ['e1', 'e2'] }),
        ended('gates_failed', 'x'.repeat(12)),
        { recentErrorsKept: 2, maxErrorChars: 10 },
      );

      // Assess
      expect(state).toMatchObject({
        recentErrors: ['e2', 'x'.repeat(10)],
        lastError: 'x'.repeat(10),
      });
    });

    it('counts only the configured outcomes as failures', () => {
      const { state } = applyTaskEvent(inProgress(), ended('gates_failed'), {
        failedOutcomes: ['agent_crashed'],
      });
      expect(state).toMatchObject({ attempts: 0, iterationsSpent: 0 });
    });

    it('keeps a task in review after a passing iteration and sends it back to work after a failed one', () => {
      const passed = applyTaskEvent(inReview({ iterationsSpent: 3 }), ended('passed')).state;
      expect(passed).toMatchObject({ status: 'in_review', iterationsSpent: 4, testsPassing: true });

      const failed = applyTaskEvent(
        inReview({ iterationsSpent: 3 }),
        ended('gates_failed', 'boom'),
      ).state;
      expect(failed).toEqual(
        inProgress({
          iterationsSpent: 4,
          attempts: 1,
          lastError: 'boom',
          recentErrors: ['boom'],
          lastAttemptSummary: 'iteration ended gates_failed',
        }),
      );
      expect(failed).not.toHaveProperty('testsPassing');
    });

    it.each([notStarted, blocked, complete])(
      'refuses an ended iteration on a task that is $status',
      (from) => {
        expect(() => applyTaskEvent(from, ended('passed'))).toThrow(InvalidTaskTransitionError);
      },
    );
  });

  describe('gates_passed and review_passed', () => {
    it('moves a task through review to complete', () => {
      // Act
      const review = applyTaskEvent(inProgress({ iterationsSpent: 2 }), gatesPassed);
      const done = applyTaskEvent(review.state, reviewPassed);

      // Assess
      expect(review.state).toMatchObject({
        status: 'in_review',
        testsPassing: true,
        lintClean: false,
        iterationsSpent: 2,
      });
      expect(review.transition.detail).toBe('gates passed (tests passing, lint not clean)');
      expect(done.state).toEqual({ status: 'complete', completedAt: T1, iteration: 5 });
      expect(done.transition).toMatchObject({
        from: 'in_review',
        to: 'complete',
        event: 'review_passed',
      });
    });

    it('updates the flags of a task already in review', () => {
      const { state } = applyTaskEvent(inReview(), {
        ...gatesPassed,
        testsPassing: false,
        lintClean: true,
      });
      expect(state).toMatchObject({ status: 'in_review', testsPassing: false, lintClean: true });
    });

    it.each([notStarted, blocked, complete])(
      'refuses gates_passed on a task that is $status',
      (from) => {
        expect(() => applyTaskEvent(from, gatesPassed)).toThrow(InvalidTaskTransitionError);
      },
    );

    it.each([notStarted, inProgress(), blocked, complete])(
      'refuses review_passed on a task that is $status',
      (from) => {
        expect(() => applyTaskEvent(from, reviewPassed)).toThrow(InvalidTaskTransitionError);
      },
    );
  });

  describe('blocked and unblocked', () => {
    it('blocks a task in progress, keeping its attempts and last error', () => {
      const { state } = applyTaskEvent(
        inProgress({ attempts: 1, lastError: 'ENOENT' }),
        blockedEvent,
      );
      expect(state).toEqual({
        status: 'blocked',
        reason: 'needs an API key',
        attempts: 1,
        lastError: 'ENOENT',
        blockedAt: T1,
        timesBlocked: 1,
      });
    });

    it('blocks a task not started, with the reason as its error when none is given', () => {
      const { state } = applyTaskEvent(notStarted, blockedEvent);
      expect(state).toMatchObject({ attempts: 0, lastError: 'needs an API key', timesBlocked: 1 });
      const withError = applyTaskEvent(inReview({ lastError: 'old' }), {
        ...blockedEvent,
        error: 'new',
      }).state;
      expect(withError).toMatchObject({ lastError: 'new' });
    });

    it('unblocks into a fresh stint that remembers how often it was blocked', () => {
      // Act
      const { state, transition } = applyTaskEvent({ ...blocked, timesBlocked: 1 }, unblocked);

      // Assess
      expect(state).toEqual(inProgress({ startedAt: T1, startedIteration: 5, timesBlocked: 1 }));
      expect(transition.detail).toBe(
        'unblocked in iteration 5 (blocked 1 time so far; was: waiting for US-001)',
      );
    });

    it.each([blocked, complete])('refuses to block a task that is $status', (from) => {
      expect(() => applyTaskEvent(from, blockedEvent)).toThrow(InvalidTaskTransitionError);
    });

    it.each([notStarted, inProgress(), inReview(), complete])(
      'refuses to unblock a task that is $status',
      (from) => {
        expect(() => applyTaskEvent(from, unblocked)).toThrow(InvalidTaskTransitionError);
      },
    );
  });

  it('names from, to and event in the error, which is an InvalidTransitionError', () => {
    // Act
    let error: unknown;
    try {
      applyTaskEvent(complete, started);
    } catch (caught) {
      error = caught;
    }

    // Assess
    expect(error).toBeInstanceOf(InvalidTransitionError);
    expect(error).toMatchObject({
      name: 'InvalidTaskTransitionError',
      code: 'INVALID_TRANSITION',
      from: 'complete',
      to: 'in_progress',
      event: 'started',
      message: 'a task cannot go from complete to in_progress (event started)',
    });
  });
});
