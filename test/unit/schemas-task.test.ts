import { describe, expect, it } from 'vitest';
import { TASK_SCHEMA_VERSION, TaskRecordSchema } from '../../lambdas/core/schemas/task.js';

/** A task item as version 1 of the code stored it: flat, with `blockedReason` and `blockedAt`. */
const STORY = {
  id: 'US-002',
  title: 'Export',
  description: 'As a user I want an export.',
  acceptanceCriteria: ['CSV download', 'Tests pass'],
  priority: 2,
  passes: false,
  notes: '',
};
const VERSION_1 = {
  runId: 'run-1',
  taskId: 'US-002',
  title: 'Export',
  priority: 2,
  order: 1,
  story: STORY,
  version: 7,
  attempts: 3,
  lastIteration: 5,
  lastOutcome: 'gates_failed',
  timesBlocked: 1,
  stintStartAttempts: 0,
};

describe('Schema: TaskRecordSchema', () => {
  it('reads a blocked task of version 1: its reason and time become the block', () => {
    // Act
    const task = TaskRecordSchema.parse({
      ...VERSION_1,
      status: 'blocked',
      blockedReason: '3 attempts failed; last: gates failed',
      blockedAt: '2025-01-15T11:00:00.000Z',
    });

    // Assess
    expect(task).toStrictEqual({
      ...VERSION_1,
      schemaVersion: TASK_SCHEMA_VERSION,
      status: 'blocked',
      block: { reason: '3 attempts failed; last: gates failed', at: '2025-01-15T11:00:00.000Z' },
    });
  });

  it('reads a version 1 task picked again after a block, keeping why it was blocked', () => {
    // Act
    const task = TaskRecordSchema.parse({
      ...VERSION_1,
      status: 'in_progress',
      stintStartAttempts: 3,
      blockedReason: '3 attempts failed',
      blockedAt: '2025-01-15T11:00:00.000Z',
    });

    // Assess
    expect(task.status).toBe('in_progress');
    expect(task.block).toStrictEqual({
      reason: '3 attempts failed',
      at: '2025-01-15T11:00:00.000Z',
    });
    expect(task).not.toHaveProperty('blockedReason');
  });

  it('reads version 1 tasks complete from the start (no completedAt) and in review', () => {
    // Act
    const complete = TaskRecordSchema.parse({ ...VERSION_1, status: 'complete', attempts: 0 });
    const inReview = TaskRecordSchema.parse({
      ...VERSION_1,
      status: 'in_review',
      review: { findings: [], reviews: 0, iteration: 5 },
    });

    // Assess
    expect(complete).toMatchObject({ schemaVersion: TASK_SCHEMA_VERSION, status: 'complete' });
    expect(complete).not.toHaveProperty('completedAt');
    expect(inReview).toMatchObject({ status: 'in_review', review: { iteration: 5 } });
  });

  it('refuses a status without the fields it carries, naming the field', () => {
    // Act
    const blocked = TaskRecordSchema.safeParse({
      ...VERSION_1,
      schemaVersion: TASK_SCHEMA_VERSION,
      status: 'blocked',
    });
    const inReview = TaskRecordSchema.safeParse({
      ...VERSION_1,
      schemaVersion: TASK_SCHEMA_VERSION,
      status: 'in_review',
    });

    // Assess
    expect(blocked.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['block']);
    expect(inReview.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['review']);
  });

  it('refuses a version it does not know', () => {
    // Act
    const parsed = TaskRecordSchema.safeParse({
      ...VERSION_1,
      schemaVersion: 3,
      status: 'in_progress',
    });

    // Assess
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['schemaVersion']);
  });
});
