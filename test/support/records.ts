/**
 * Valid records for tests. Each factory parses its result with the real schema, so a test
 * never stores something the adapters would refuse to read back, and an override that
 * breaks the schema fails at the factory with the zod path.
 */
import { GateResultSchema, type GateResult } from '../../lambdas/core/schemas/gate-result.js';
import { RunRecordSchema, type RunRecord } from '../../lambdas/core/schemas/run.js';
import {
  IterationRecordSchema,
  type IterationRecord,
} from '../../lambdas/core/schemas/iteration.js';
import {
  TASK_SCHEMA_VERSION,
  TaskRecordSchema,
  type TaskRecord,
  type TaskRecordInput,
} from '../../lambdas/core/schemas/task.js';
import type { z } from 'zod';

const CREATED_AT = '2025-01-15T10:00:00.000Z';

/** Overrides are merged shallowly over the defaults and may use schema input forms. */
type Overrides<S extends z.ZodType> = Partial<z.input<S>>;

/**
 * @example
 * const run = makeRun({ runId: 'run-2', createdAt: '2025-01-16T00:00:00.000Z' });
 */
export function makeRun(overrides: Overrides<typeof RunRecordSchema> = {}): RunRecord {
  return RunRecordSchema.parse({
    runId: 'run-1',
    projectId: 'project-1',
    status: 'running',
    version: 1,
    createdAt: CREATED_AT,
    updatedAt: CREATED_AT,
    repo: { kind: 'local', path: '/tmp/example-repo' },
    prdPath: 'prd.json',
    branchName: 'ralph/example',
    project: 'Example',
    config: {},
    segment: 1,
    iterationsStarted: 0,
    iterationsCompleted: 0,
    storiesTotal: 0,
    storiesPassed: 0,
    consecutiveFailures: 0,
    ...overrides,
  });
}

export function makeIteration(
  overrides: Overrides<typeof IterationRecordSchema> = {},
): IterationRecord {
  return IterationRecordSchema.parse({
    runId: 'run-1',
    iteration: 1,
    segment: 1,
    status: 'planned',
    version: 1,
    taskId: 'US-001',
    taskTitle: 'First story',
    attempt: 1,
    plannedAt: CREATED_AT,
    ...overrides,
  });
}

/**
 * A task; one in review or blocked gets the field its status carries (an empty review of
 * iteration 1, a block "blocked in a test") unless the overrides give it.
 */
export function makeTask(overrides: Partial<TaskRecordInput> = {}): TaskRecord {
  const taskId = overrides.taskId ?? 'US-001';
  const title = overrides.title ?? 'First story';
  const priority = overrides.priority ?? 1;
  return TaskRecordSchema.parse({
    schemaVersion: TASK_SCHEMA_VERSION,
    runId: 'run-1',
    taskId,
    title,
    priority,
    status: 'not_started',
    version: 1,
    attempts: 0,
    story: {
      id: taskId,
      title,
      description: `As a user I want ${title.toLowerCase()}.`,
      acceptanceCriteria: ['Tests pass'],
      priority,
      passes: false,
      notes: '',
    },
    ...(overrides.status === 'in_review' ? { review: { findings: [], iteration: 1 } } : {}),
    ...(overrides.status === 'blocked'
      ? { block: { reason: 'blocked in a test', at: CREATED_AT } }
      : {}),
    ...overrides,
  });
}

/** `count` tasks `US-001`.. of one run, priorities 1.., so that createRun accepts them. */
export function makeTasks(runId: string, count: number): TaskRecord[] {
  return Array.from({ length: count }, (_, index) => {
    const taskId = `US-${String(index + 1).padStart(3, '0')}`;
    return makeTask({ runId, taskId, title: `Story ${taskId}`, priority: index + 1 });
  });
}

/** A gate's result: a blocking typecheck that failed, unless told otherwise. */
export function makeGate(overrides: Partial<GateResult> = {}): GateResult {
  return GateResultSchema.parse({
    name: 'typecheck',
    blocking: true,
    passed: false,
    exitCode: 2,
    timedOut: false,
    durationMs: 900,
    outputTail: '',
    ...overrides,
  });
}
