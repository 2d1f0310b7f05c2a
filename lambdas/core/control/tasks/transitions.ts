/**
 * The task state machine (design section 3.4). Allowed moves:
 *
 * | from                     | event            | to                                              |
 * | ------------------------ | ---------------- | ----------------------------------------------- |
 * | not_started              | `started`        | in_progress                                     |
 * | in_progress              | `iteration_ended`| in_progress, or blocked at `maxTaskAttempts`     |
 * | in_review                | `iteration_ended`| in_review when it passed, else in_progress/blocked |
 * | in_progress, in_review   | `gates_passed`   | in_review                                       |
 * | in_review                | `review_passed`  | complete                                        |
 * | not_started, in_progress, in_review | `blocked` | blocked                                  |
 * | blocked                  | `unblocked`      | in_progress (a fresh stint: attempts back to 0) |
 *
 * Complete is final. Anything else throws {@link InvalidTaskTransitionError}.
 */
import { z } from 'zod';
import { IterationOutcomeSchema } from '../../schemas/outcome.js';
import { InvalidTaskTransitionError } from './errors.js';
import {
  TaskStatusSchema,
  type BlockedState,
  type CompleteState,
  type InProgressState,
  type InReviewState,
  type TaskState,
  type TaskStatus,
} from './task-state.js';

const IsoDate = z.iso.datetime({ offset: true });
const When = { iteration: z.number().int().positive(), now: IsoDate };

export const TaskEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('started'), ...When }),
  z.object({
    type: z.literal('iteration_ended'),
    ...When,
    outcome: IterationOutcomeSchema,
    summary: z.string(),
    error: z.string().optional(),
  }),
  z.object({
    type: z.literal('gates_passed'),
    ...When,
    testsPassing: z.boolean(),
    lintClean: z.boolean(),
  }),
  z.object({ type: z.literal('review_passed'), ...When }),
  z.object({
    type: z.literal('blocked'),
    ...When,
    reason: z.string().min(1),
    error: z.string().optional(),
  }),
  z.object({ type: z.literal('unblocked'), ...When }),
]);
export type TaskEvent = z.infer<typeof TaskEventSchema>;
export type TaskEventType = TaskEvent['type'];

/** Outcomes that count against the task: the agent's work did not pass. */
export const DEFAULT_FAILED_OUTCOMES = [
  'gates_failed',
  'no_changes',
  'agent_failed',
  'agent_crashed',
  'agent_timeout',
] as const;

export const TaskTransitionOptionsSchema = z.object({
  /** Failed attempts in one stint that block the task (design section 5.2 `maxTaskAttempts`). */
  maxTaskAttempts: z.number().int().positive().default(3),
  /**
   * Outcomes that are a failed attempt. The others (cancelled, interrupted, runner_error,
   * a missing or dirty workspace) are the loop's trouble, not the task's, and cost no attempt.
   */
  failedOutcomes: z.array(IterationOutcomeSchema).default([...DEFAULT_FAILED_OUTCOMES]),
  /** How many failure texts a task keeps for telling "different errors" from "the same one". */
  recentErrorsKept: z.number().int().positive().default(5),
  /** Failure texts are cut to this many characters: state is stored, output is not. */
  maxErrorChars: z.number().int().positive().default(2000),
});
export type TaskTransitionOptions = z.infer<typeof TaskTransitionOptionsSchema>;
export type TaskTransitionOptionsInput = z.input<typeof TaskTransitionOptionsSchema>;

/** One entry of a task's history: stored under the task, so it names no task itself. */
export const TaskTransitionSchema = z.object({
  from: TaskStatusSchema,
  to: TaskStatusSchema,
  event: z.enum([
    'started',
    'iteration_ended',
    'gates_passed',
    'review_passed',
    'blocked',
    'unblocked',
  ]),
  iteration: z.number().int().positive(),
  at: IsoDate,
  /** Why, in words: the summary, the block reason, the attempt count. */
  detail: z.string(),
});
export type TaskTransition = z.infer<typeof TaskTransitionSchema>;

export interface TaskTransitionResult {
  state: TaskState;
  transition: TaskTransition;
}

/** Where each event leads when it is allowed: what an invalid-transition error names. */
const NOMINAL_TARGET: Record<TaskEventType, TaskStatus> = {
  started: 'in_progress',
  iteration_ended: 'in_progress',
  gates_passed: 'in_review',
  review_passed: 'complete',
  blocked: 'blocked',
  unblocked: 'in_progress',
};

/**
 * The task's next state after `event`, and the history entry recording the move.
 *
 * @throws InvalidTaskTransitionError when `state` does not allow `event`.
 * @example
 * const { state } = applyTaskEvent({ status: 'not_started' },
 *   { type: 'started', iteration: 4, now: '2025-01-01T00:00:00Z' });
 * state.status // 'in_progress'
 */
export function applyTaskEvent(
  state: TaskState,
  event: TaskEvent,
  options: TaskTransitionOptionsInput = {},
): TaskTransitionResult {
  const settings = TaskTransitionOptionsSchema.parse(options);
  const next = nextState(state, event, settings);
  return {
    state: next.state,
    transition: {
      from: state.status,
      to: next.state.status,
      event: event.type,
      iteration: event.iteration,
      at: event.now,
      detail: next.detail,
    },
  };
}

function nextState(
  state: TaskState,
  event: TaskEvent,
  options: TaskTransitionOptions,
): { state: TaskState; detail: string } {
  const refuse = () =>
    new InvalidTaskTransitionError(state.status, NOMINAL_TARGET[event.type], event.type);
  switch (event.type) {
    case 'started':
      if (state.status !== 'not_started') throw refuse();
      return { state: freshStint(event, 0), detail: `started in iteration ${event.iteration}` };
    case 'iteration_ended':
      if (state.status !== 'in_progress' && state.status !== 'in_review') throw refuse();
      return endIteration(state, event, options);
    case 'gates_passed':
      if (state.status !== 'in_progress' && state.status !== 'in_review') throw refuse();
      return {
        state: {
          ...workOf(state),
          status: 'in_review',
          testsPassing: event.testsPassing,
          lintClean: event.lintClean,
        },
        detail: `gates passed (tests ${event.testsPassing ? 'passing' : 'not passing'}, lint ${event.lintClean ? 'clean' : 'not clean'})`,
      };
    case 'review_passed':
      if (state.status !== 'in_review') throw refuse();
      return {
        state: { status: 'complete', completedAt: event.now, iteration: event.iteration },
        detail: `review passed in iteration ${event.iteration}`,
      };
    case 'blocked':
      if (state.status === 'blocked' || state.status === 'complete') throw refuse();
      return {
        state: block(state, event.reason, event.error, event.now, options),
        detail: event.reason,
      };
    case 'unblocked':
      if (state.status !== 'blocked') throw refuse();
      return {
        state: freshStint(event, state.timesBlocked),
        detail: `unblocked in iteration ${event.iteration} (blocked ${state.timesBlocked} time${state.timesBlocked === 1 ? '' : 's'} so far; was: ${state.reason})`,
      };
  }
}

function freshStint(
  event: { iteration: number; now: string },
  timesBlocked: number,
): InProgressState {
  return {
    status: 'in_progress',
    startedAt: event.now,
    startedIteration: event.iteration,
    iterationsSpent: 0,
    lastAttemptSummary: '',
    attempts: 0,
    recentErrors: [],
    timesBlocked,
  };
}

/** The work fields of an in-progress or in-review state, as an in-progress state. */
function workOf(state: InProgressState | InReviewState): InProgressState {
  return {
    status: 'in_progress',
    startedAt: state.startedAt,
    startedIteration: state.startedIteration,
    iterationsSpent: state.iterationsSpent,
    lastAttemptSummary: state.lastAttemptSummary,
    attempts: state.attempts,
    ...(state.lastError === undefined ? {} : { lastError: state.lastError }),
    recentErrors: state.recentErrors,
    timesBlocked: state.timesBlocked,
  };
}

function endIteration(
  state: InProgressState | InReviewState,
  event: Extract<TaskEvent, { type: 'iteration_ended' }>,
  options: TaskTransitionOptions,
): { state: TaskState; detail: string } {
  const spent = state.iterationsSpent + 1;
  if (event.outcome === 'passed')
    return {
      state: { ...state, iterationsSpent: spent, lastAttemptSummary: event.summary },
      detail: `passed: ${event.summary}`,
    };
  if (!options.failedOutcomes.includes(event.outcome))
    // The loop lost this iteration (cancelled, interrupted, runner trouble): the task spent
    // neither budget nor an attempt on it.
    return {
      state: { ...state, lastAttemptSummary: event.summary },
      detail: `${event.outcome}, not counted against the task: ${event.summary}`,
    };
  const error = (event.error ?? event.summary).slice(0, options.maxErrorChars);
  const attempts = state.attempts + 1;
  const worked: InProgressState = {
    ...workOf(state),
    iterationsSpent: spent,
    lastAttemptSummary: event.summary,
    attempts,
    lastError: error,
    recentErrors: [...state.recentErrors, error].slice(-options.recentErrorsKept),
  };
  const tally = `failed attempt ${attempts} of ${options.maxTaskAttempts} (${event.outcome})`;
  if (attempts >= options.maxTaskAttempts) {
    const reason = `${attempts} failed attempts (limit ${options.maxTaskAttempts}); last: ${event.outcome}`;
    return { state: block(worked, reason, error, event.now, options), detail: tally };
  }
  return { state: worked, detail: `${tally}: ${event.summary}` };
}

function block(
  state: Exclude<TaskState, BlockedState | CompleteState>,
  reason: string,
  error: string | undefined,
  now: string,
  options: TaskTransitionOptions,
): BlockedState {
  const work = state.status === 'not_started' ? undefined : state;
  return {
    status: 'blocked',
    reason,
    attempts: work?.attempts ?? 0,
    lastError: (error ?? work?.lastError ?? reason).slice(0, options.maxErrorChars),
    blockedAt: now,
    timesBlocked: (work?.timesBlocked ?? 0) + 1,
  };
}
