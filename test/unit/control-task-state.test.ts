import { describe, expect, it } from 'vitest';
import {
  nextOpenSubtask,
  SubtaskSchema,
  TaskStateSchema,
  type InProgressState,
  type TaskState,
} from '../../lambdas/core/control/tasks/task-state.js';

const T0 = '2025-03-01T10:00:00.000Z';

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

describe('Schema: SubtaskSchema and nextOpenSubtask', () => {
  const subtask = (n: number, state: TaskState = notStarted) => ({
    id: `US-002.${n}`,
    title: `part ${n}`,
    acceptanceCriteria: [`c${n}`],
    state,
  });

  it('refuses a subtask id without its position', () => {
    expect(SubtaskSchema.safeParse(subtask(1)).success).toBe(true);
    expect(SubtaskSchema.safeParse({ ...subtask(2), id: 'US-002' }).success).toBe(false);
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
