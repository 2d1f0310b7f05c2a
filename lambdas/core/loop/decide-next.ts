import { budgetStopReason, type ProjectDaySpend } from '../costs/budget.js';
import { segmentLength } from '../schemas/execution-history.js';
import { DEFAULT_LOOP_CONTROL_CONFIG } from '../schemas/control-config.js';
import type { LoopAction } from '../schemas/loop-action.js';
import type { RunRecord } from '../schemas/run.js';
import type { IterationOutcome } from '../schemas/outcome.js';
import type { TaskRecord } from '../schemas/task.js';

export interface NextStep {
  action: LoopAction;
  reason: string;
}

/** Outcomes that no further iteration can fix by itself. */
const STOPPING_OUTCOMES: Partial<Record<IterationOutcome, { action: LoopAction; why: string }>> = {
  workspace_missing: { action: 'abort', why: 'the repository is missing' },
  workspace_dirty: {
    action: 'pause',
    why: 'the working tree has uncommitted changes: commit or stash them, then resume',
  },
};

/**
 * What the loop does next, from stored state alone. The first rule that holds wins:
 * cancel, complete, a cost budget reached, a stopping outcome, too many consecutive
 * failures, the iteration limit, the segment length, else continue. `today` is what the
 * project's runs spent today, when a per-day budget is set. An agent's `<promise>COMPLETE</promise>` is
 * not consulted: only stories whose gates passed count.
 *
 * @example
 * decideNext(run, tasks) // { action: 'continue', reason: '2 of 3 stories pass' }
 */
export function decideNext(
  run: RunRecord,
  tasks: readonly TaskRecord[],
  today?: ProjectDaySpend,
): NextStep {
  // A task in review is not complete: its review iteration still has to run.
  const passed = tasks.filter((task) => task.status === 'complete').length;
  const inReview = tasks.filter((task) => task.status === 'in_review').length;
  const progress = `${passed} of ${tasks.length} stories pass${inReview > 0 ? `, ${inReview} in review` : ''}`;
  const { limits } = run.config;

  if (run.cancelRequested) return { action: 'cancel', reason: 'cancelled on request' };
  // A rollback pending for the next iteration reopens stories: not done yet.
  const resetPending = run.control?.reset?.after === run.lastRecordedIteration;
  if (tasks.length > 0 && passed === tasks.length && !resetPending)
    return {
      action: 'complete',
      reason: `${allPassReason(run, tasks.length)}${convergenceNote(run)}`,
    };
  if (run.evaluation?.converged && run.config.evaluation.stopOnConvergence)
    return { action: 'complete', reason: `${convergenceNote(run).slice(2)}; ${progress}` };

  const overBudget = budgetStopReason(run, today);
  if (overBudget) return { action: 'abort', reason: `${overBudget}; ${progress}` };

  // Only a failure of this segment stops it: resuming after a pause is the person saying
  // the cause is dealt with.
  const failure =
    run.lastFailure && run.lastFailure.iteration > run.segmentStartIteration
      ? run.lastFailure
      : undefined;
  const stopping = failure && STOPPING_OUTCOMES[failure.outcome];
  if (stopping && failure)
    return {
      action: stopping.action,
      reason: `iteration ${failure.iteration}: ${stopping.why} (${failure.summary})`,
    };

  // Loop control's decisions after the latest iteration (this segment's only: resuming
  // after a pause is the person saying the cause is dealt with).
  const control = run.control;
  const stagnation =
    control?.stagnation && control.stagnation.iteration > run.segmentStartIteration
      ? control.stagnation
      : undefined;
  if (stagnation?.level === 'critical')
    return {
      action: 'abort',
      reason: `stagnation critical: ${stagnation.count} iterations without progress (${stagnation.diagnostics.summary}); ${progress}`,
    };
  const verdict =
    control?.verdict && control.verdict.iteration > run.segmentStartIteration
      ? control.verdict
      : undefined;
  if (verdict?.verdict === 'ABORT')
    return { action: 'abort', reason: `supervisor: ABORT (${verdict.reason}); ${progress}` };
  if (verdict?.verdict === 'PAUSE')
    return {
      action: 'pause',
      reason: `supervisor: PAUSE (${verdict.reason}): review, then resume; ${progress}`,
    };

  const open = tasks.filter((task) => task.status !== 'complete');
  const maxBlocks = run.config.control.loop.maxTimesBlocked;
  if (
    open.length > 0 &&
    open.every((task) => task.status === 'blocked' && task.timesBlocked >= maxBlocks)
  )
    return {
      action: 'abort',
      reason: `every open story is blocked, each ${maxBlocks} times or more (${blockedList(open)}); ${progress}`,
    };

  if (run.consecutiveFailures >= limits.maxConsecutiveFailures)
    return {
      action: 'abort',
      reason: `${run.consecutiveFailures} iterations in a row ended without a counted commit (limit ${limits.maxConsecutiveFailures}); ${progress}`,
    };
  // The limits count iterations recorded: a number already handed out (planned with the
  // write that recorded the last one, or left by a segment that died) has not run yet,
  // and prepare-iteration runs it rather than numbering another.
  const ran = run.lastRecordedIteration;
  if (ran >= limits.maxIterations)
    return {
      action: 'max_iterations',
      reason: `reached the limit of ${limits.maxIterations} iterations; ${progress}`,
    };
  const perSegment = segmentLength(run.config);
  if (ran - run.segmentStartIteration >= perSegment)
    return {
      action: 'new_segment',
      reason: `${perSegment} iterations in segment ${run.segment}: continuing in segment ${run.segment + 1}`,
    };
  return { action: 'continue', reason: progress };
}

/** Blocked stories named in a stop reason at most; the rest are counted. */
const BLOCKED_NAMED = 3;
/** A block's reason in a stop reason is cut to this many characters. */
const BLOCK_REASON_CHARS = 160;

/**
 * `US-001: <reason>; US-002: <reason> and 7 more`: a stop reason is shown in tables, logs
 * and the API, so it stays short however many stories are blocked and however long a
 * block's reason (a gate's output) is; each task keeps its full reason.
 */
function blockedList(open: readonly TaskRecord[]): string {
  const named = open.slice(0, BLOCKED_NAMED).map((task) => {
    const reason = task.block?.reason ?? 'blocked';
    const short =
      reason.length > BLOCK_REASON_CHARS ? `${reason.slice(0, BLOCK_REASON_CHARS - 1)}…` : reason;
    return `${task.taskId}: ${short}`;
  });
  const more = open.length - named.length;
  return `${named.join('; ')}${more > 0 ? ` and ${more} more` : ''}`;
}

/** How the evaluation stands, for a run that evaluates (empty otherwise). */
function convergenceNote(run: RunRecord): string {
  if (!run.config.evaluation.enabled) return '';
  const state = run.evaluation;
  if (state?.converged)
    return `; converged at iteration ${state.convergedIteration ?? '?'}: the cheap mode tracks the judge (proof: ${state.proofKey ?? 'stored'})`;
  if (state?.convergedIteration !== undefined)
    return `; the evaluation converged at iteration ${state.convergedIteration} but no longer holds (iteration ${state.lastAnalysedIteration})`;
  return `; the evaluation has not converged${state?.lastConvergence ? `: ${state.lastConvergence}` : ''}`;
}

/**
 * The next task (design §3.4's next-best task, in Ralph's order): a task in review first
 * (continuity: its gates passed, one review iteration finishes it), else the first open
 * one by priority, ties in prd.json order, skipping blocked ones and ones that have spent
 * `maxTaskIterations` iterations in their current stint (design §3.4's should_skip_task:
 * over its budget, while another story waits); when every open task is blocked, the one
 * blocked longest ago (another story may have unblocked it).
 *
 * @example
 * nextTask([notStartedPriority1, inReviewPriority2])?.taskId // the one in review
 */
export function nextTask(
  tasks: readonly TaskRecord[],
  limits: { maxTaskIterations: number } = DEFAULT_LOOP_CONTROL_CONFIG.loop,
): TaskRecord | undefined {
  const open = [...tasks]
    .sort((a, b) => a.priority - b.priority || a.order - b.order)
    .filter((task) => task.status !== 'complete');
  const overBudget = (task: TaskRecord) =>
    task.status === 'in_progress' &&
    task.attempts - task.stintStartAttempts >= limits.maxTaskIterations;
  return (
    open.find((task) => task.status === 'in_review') ??
    open.find((task) => task.status !== 'blocked' && !overBudget(task)) ??
    open.find((task) => task.status !== 'blocked') ??
    [...open].sort((a, b) => (a.block?.at ?? '').localeCompare(b.block?.at ?? ''))[0]
  );
}

/**
 * How a run whose stories all pass says so: with no gate configured, nothing checked the
 * agent's work, and the words must not claim otherwise; an investigate run's tasks are
 * errors, investigated.
 */
export function allPassReason(run: RunRecord, stories: number): string {
  // An investigation concludes with or without a fix: its report says which have one.
  if (run.investigation !== undefined)
    return `all ${stories} error${stories === 1 ? '' : 's'} investigated (the report says which have a pull request)`;
  return run.config.gates.length === 0
    ? `all ${stories} stories done; no gates: nothing was verified`
    : `all ${stories} stories pass their gates`;
}
