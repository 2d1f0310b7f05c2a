/**
 * A task after an iteration on it (design §3.4, §3.5): complete when it passed (a decomposed
 * story with its last subtask), decomposed when the failure says it is too complex, blocked
 * after `maxTaskAttempts` failed attempts in its stint, else in progress.
 */
import { classifyFailure } from '../control/retry/classify-failure.js';
import { decomposeStory } from '../control/retry/decompose.js';
import type { IterationResult } from '../schemas/iteration-io.js';
import type { IterationOutcome } from '../schemas/outcome.js';
import type { TaskRecord, TaskSubtask } from '../schemas/records.js';

/** Outcomes that cost the task an attempt (a cancel or a runner fault is not the task's). */
const FAILED_ATTEMPTS: ReadonlySet<IterationOutcome> = new Set([
  'gates_failed',
  'no_changes',
  'agent_failed',
  'agent_crashed',
  'agent_timeout',
]);

/**
 * The task after an iteration on it: complete when it passed; blocked once it failed
 * `maxTaskAttempts` times in this stint (design §3.4: skipped while other stories are open).
 */
export function nextTaskState(
  task: TaskRecord,
  result: IterationResult,
  now: string,
  limits: { maxTaskAttempts: number; previousErrors: string[] },
): TaskRecord {
  const counted = { ...task, attempts: task.attempts + 1, lastIteration: result.iteration };
  const done = { ...counted, lastOutcome: result.outcome };
  if (result.outcome === 'passed') {
    // A decomposed story completes with its last subtask.
    const subtasks = task.subtasks?.map((subtask) =>
      subtask.id === result.subtaskId ? { ...subtask, status: 'complete' as const } : subtask,
    );
    if (subtasks?.some((subtask) => subtask.status === 'open'))
      return { ...done, status: 'in_progress', subtasks };
    return { ...done, status: 'complete', completedAt: now, ...(subtasks ? { subtasks } : {}) };
  }
  // Too complex (design §3.5): worked on one subtask at a time from now on, a new stint.
  if (!task.subtasks && FAILED_ATTEMPTS.has(result.outcome)) {
    const split = tooComplex(task, result, limits.previousErrors);
    if (split)
      return {
        ...done,
        status: 'in_progress',
        subtasks: split,
        stintStartAttempts: counted.attempts,
      };
  }
  const failedInStint = counted.attempts - task.stintStartAttempts;
  if (FAILED_ATTEMPTS.has(result.outcome) && failedInStint >= limits.maxTaskAttempts)
    return {
      ...done,
      status: 'blocked',
      blockedAt: now,
      blockedReason: `${failedInStint} attempts failed; last: ${result.cause ?? result.outcome}`,
      timesBlocked: task.timesBlocked + 1,
    };
  return { ...done, status: 'in_progress' };
}

/** The story's subtasks when the failure says it is too complex, and it can be split. */
function tooComplex(
  task: TaskRecord,
  result: IterationResult,
  previousErrors: string[],
): TaskSubtask[] | undefined {
  const observed = result.observation;
  const classification = classifyFailure({
    outcome: result.outcome,
    gates: result.gates,
    previousErrors,
    ...(observed ? { linesChanged: observed.linesAdded + observed.linesRemoved } : {}),
  });
  if (classification.kind !== 'too_complex') return undefined;
  const split = decomposeStory(task.story);
  if (!split.decomposable) return undefined;
  return split.subtasks.map((subtask) => ({
    id: subtask.id,
    title: subtask.title,
    acceptanceCriteria: subtask.acceptanceCriteria,
    status: 'open' as const,
  }));
}
