/**
 * Which task the next iteration works on (design section 3.4 `next_best_task`). The rules,
 * first that yields a task wins:
 *
 * 1. **Continuity**: a task in review, else in progress, that is within its budget
 *    (priority, then prd order, among several). A decomposed task continues with its next
 *    open subtask.
 * 2. **Start**: a task not started, by priority then prd order (Ralph's own rule). A
 *    decomposed one starts with its next open subtask.
 * 3. **Retry a blocked task** that may now pass, among those blocked fewer than
 *    `maxTimesBlocked` times, ranked by:
 *    a. its block names a task (by id) that completed after it was blocked: the
 *       dependency it waited for is there now;
 *    b. some other task completed after it was blocked: the code it failed against changed;
 *    c. it was blocked longest ago;
 *    then priority and prd order. Its state must be moved with `unblocked` first.
 *
 * Tasks in progress over budget are never picked: they are listed in `overBudget` so the
 * caller can block them (`blocked` event) and let rule 3 bring them back later.
 */
import { z } from 'zod';
import {
  nextOpenSubtask,
  type BlockedState,
  type InProgressState,
  type InReviewState,
  type TaskState,
  type TrackedTask,
} from './task-state.js';

export const SelectTaskOptionsSchema = z.object({
  /** A blocked task with this many failed attempts is skipped (design section 3.4). */
  maxTaskAttempts: z.number().int().positive().default(3),
  /**
   * A stint's iteration budget: a task that has spent this many iterations gets no more
   * (the document's `iterations_spent > MAX_TASK_ITERATIONS`, counting the iteration about
   * to run).
   */
  maxTaskIterations: z.number().int().positive().default(8),
  /** A stint's time budget: a task in progress for longer than this is skipped. */
  taskTimeoutMinutes: z.number().positive().default(30),
  /** A task blocked this many times is not retried by rule 3 (ours: one second chance). */
  maxTimesBlocked: z.number().int().positive().default(2),
});
export type SelectTaskOptions = z.infer<typeof SelectTaskOptionsSchema>;
export type SelectTaskOptionsInput = z.input<typeof SelectTaskOptionsSchema>;

export const SELECTION_RULES = ['continue', 'start', 'retry_blocked'] as const;

export const TaskChoiceSchema = z.discriminatedUnion('found', [
  z.object({
    found: z.literal(true),
    taskId: z.string(),
    /** Set when the task is decomposed: work on this subtask only. */
    subtaskId: z.string().optional(),
    rule: z.enum(SELECTION_RULES),
    why: z.string(),
    overBudget: z.array(z.object({ taskId: z.string(), why: z.string() })),
  }),
  z.object({
    found: z.literal(false),
    why: z.string(),
    overBudget: z.array(z.object({ taskId: z.string(), why: z.string() })),
  }),
]);
export type TaskChoice = z.infer<typeof TaskChoiceSchema>;

type Working = InProgressState | InReviewState;

const isWorking = (state: TaskState): state is Working =>
  state.status === 'in_progress' || state.status === 'in_review';

/**
 * Why a task in progress or in review is over its budget, or undefined when it is not
 * (or is in another state).
 *
 * @example
 * overBudgetReason(state, new Date('2025-01-01T00:31:00Z')) // 'in progress for 31 minutes (budget 30)'
 */
export function overBudgetReason(
  state: TaskState,
  now: Date,
  options: SelectTaskOptionsInput = {},
): string | undefined {
  if (!isWorking(state)) return undefined;
  const { maxTaskIterations, taskTimeoutMinutes } = SelectTaskOptionsSchema.parse(options);
  if (state.iterationsSpent >= maxTaskIterations)
    return `spent ${state.iterationsSpent} iterations (budget ${maxTaskIterations})`;
  const minutes = minutesSince(state.startedAt, now);
  if (minutes > taskTimeoutMinutes)
    return `in progress for ${formatMinutes(minutes)} minutes (budget ${taskTimeoutMinutes})`;
  return undefined;
}

/**
 * The document's `should_skip_task`: blocked after `maxTaskAttempts` failed attempts, or in
 * progress over its iteration or time budget.
 *
 * @example
 * shouldSkipTask({ status: 'blocked', reason: 'x', attempts: 3, lastError: 'e',
 *   blockedAt: '2025-01-01T00:00:00Z', timesBlocked: 1 }, new Date()) // true
 */
export function shouldSkipTask(
  state: TaskState,
  now: Date,
  options: SelectTaskOptionsInput = {},
): boolean {
  const settings = SelectTaskOptionsSchema.parse(options);
  if (state.status === 'blocked') return state.attempts >= settings.maxTaskAttempts;
  return overBudgetReason(state, now, settings) !== undefined;
}

/**
 * The task the next iteration should work on, and why (rules in the module comment).
 *
 * @example
 * const choice = nextBestTask(tasks, new Date());
 * if (choice.found) plan(choice.taskId, choice.subtaskId);
 */
export function nextBestTask(
  tasks: readonly TrackedTask[],
  now: Date,
  options: SelectTaskOptionsInput = {},
): TaskChoice {
  const settings = SelectTaskOptionsSchema.parse(options);
  const byPlan = [...tasks].sort((a, b) => a.priority - b.priority || a.order - b.order);
  const overBudget: { taskId: string; why: string }[] = [];

  const working = byPlan.filter((task) => {
    if (!isWorking(task.state)) return false;
    const why = overBudgetReason(task.state, now, settings);
    if (why) overBudget.push({ taskId: task.taskId, why });
    return why === undefined;
  });
  const continued = working.find((task) => task.state.status === 'in_review') ?? working[0];
  if (continued && isWorking(continued.state))
    return chosen(
      continued,
      'continue',
      `continuing: ${describeWork(continued.state)}`,
      overBudget,
    );

  const fresh = byPlan.find((task) => task.state.status === 'not_started');
  if (fresh)
    return chosen(
      fresh,
      'start',
      `the first task not started, by priority (${fresh.priority}) then prd order (${fresh.order})`,
      overBudget,
    );

  const retry = rankBlocked(byPlan, settings);
  if (retry) return chosen(retry.task, 'retry_blocked', retry.why, overBudget);

  const open = byPlan.filter((task) => task.state.status !== 'complete');
  return {
    found: false,
    why:
      open.length === 0
        ? 'every task is complete'
        : `no task can be worked on: ${open.length} open task${open.length === 1 ? ' is' : 's are'} over budget or blocked ${settings.maxTimesBlocked} times`,
    overBudget,
  };
}

function chosen(
  task: TrackedTask,
  rule: (typeof SELECTION_RULES)[number],
  why: string,
  overBudget: { taskId: string; why: string }[],
): TaskChoice {
  const open = nextOpenSubtask(task);
  return {
    found: true,
    taskId: task.taskId,
    ...(open ? { subtaskId: open.subtask.id } : {}),
    rule,
    why: open
      ? `${why}; next open subtask ${open.subtask.id} (${open.position} of ${task.subtasks?.length})`
      : why,
    overBudget,
  };
}

function describeWork(state: Working): string {
  const stage = state.status === 'in_review' ? 'in review' : 'in progress';
  return `${stage} since iteration ${state.startedIteration}, ${state.iterationsSpent} iteration${state.iterationsSpent === 1 ? '' : 's'} spent, ${state.attempts} failed`;
}

interface BlockedCandidate {
  task: TrackedTask;
  state: BlockedState;
  freedBy: string | undefined;
  completedSince: string | undefined;
}

function rankBlocked(
  byPlan: readonly TrackedTask[],
  options: SelectTaskOptions,
): { task: TrackedTask; why: string } | undefined {
  const completions = byPlan.flatMap((task) =>
    task.state.status === 'complete'
      ? [{ taskId: task.taskId, at: Date.parse(task.state.completedAt) }]
      : [],
  );
  const candidates: BlockedCandidate[] = byPlan.flatMap((task) => {
    const state = task.state;
    if (state.status !== 'blocked' || state.timesBlocked >= options.maxTimesBlocked) return [];
    const blockedAt = Date.parse(state.blockedAt);
    const since = completions.filter((done) => done.at > blockedAt);
    const text = `${state.reason}\n${state.lastError}`;
    return [
      {
        task,
        state,
        freedBy: since.find((done) => mentionsId(text, done.taskId))?.taskId,
        completedSince: since[0]?.taskId,
      },
    ];
  });
  // byPlan order is the last tie-break: the sort is stable.
  const [best] = candidates.sort(
    (a, b) =>
      Number(b.freedBy !== undefined) - Number(a.freedBy !== undefined) ||
      Number(b.completedSince !== undefined) - Number(a.completedSince !== undefined) ||
      Date.parse(a.state.blockedAt) - Date.parse(b.state.blockedAt),
  );
  if (!best) return undefined;
  const why = best.freedBy
    ? `blocked on ${best.freedBy}, which is now complete`
    : best.completedSince
      ? `${best.completedSince} completed since it was blocked: the code it failed against changed`
      : `blocked longest ago (${best.state.blockedAt}); nothing else is open`;
  return { task: best.task, why: `retrying a blocked task: ${why} (was: ${best.state.reason})` };
}

/** The id as a whole word: `US-1` is not mentioned by `US-10`. */
function mentionsId(text: string, taskId: string): boolean {
  const escaped = taskId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\w.-])${escaped}(?![\\w-]|\\.\\d)`).test(text);
}

function minutesSince(startedAt: string, now: Date): number {
  return (now.getTime() - Date.parse(startedAt)) / 60_000;
}

function formatMinutes(minutes: number): string {
  return Number.isInteger(minutes) ? String(minutes) : minutes.toFixed(1);
}
