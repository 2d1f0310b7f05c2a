/**
 * The one way the loop moves on, without I/O: record the iteration that just ran (when
 * there is one), let loop control learn from it, decide what comes next, and plan the
 * next iteration when the run goes on. A segment's first step uses it too, with nothing
 * to record. The step that calls it (steps/advance.ts) reads the records and writes what
 * this returns.
 */
import type { ProjectDaySpend } from '../costs/budget.js';
import type { PromptTemplates } from '../prompts/templates.js';
import { roundTo } from '../shared/stats.js';
import type { IterationRecord } from '../schemas/iteration.js';
import type { IterationResult } from '../schemas/iteration-result.js';
import type { RunRecord } from '../schemas/run.js';
import type { TaskRecord } from '../schemas/task.js';
import { decideNext, type NextStep } from './decide-next.js';
import {
  planIteration,
  tasksAfterPendingReset,
  type LearningOf,
  type PlannedIteration,
} from './plan-iteration.js';
import { recordResult } from './record-result.js';

export interface AdvanceInput {
  run: RunRecord;
  tasks: readonly TaskRecord[];
  /** The iteration that just ran: its record, and what the runner reported. */
  ran?: { record: IterationRecord; result: IterationResult };
  /**
   * The record of the run's last failure before this step, when it has one and it is not
   * the iteration that just ran (whose record this step writes): its gates steer the plan.
   */
  lastFailed?: IterationRecord;
  /** The record under a number handed out but not recorded (see PlanningInput.handedOut). */
  handedOut?: { record: IterationRecord | undefined };
  now: string;
  templates: PromptTemplates;
  /** Plan the next iteration when the run goes on. @default true (false: record only). */
  plan?: boolean;
  /** What the next plan carries of what was learned (absent: nothing). */
  learning?: LearningOf;
  /**
   * What the project's runs spent today before this step counts the iteration that ran
   * (read when `limits.maxCostUsdPerProjectDay` is set).
   */
  today?: ProjectDaySpend;
}

/** What changes, and what comes next. */
export interface Advance {
  decision: NextStep;
  /** The run as it must be stored (undefined: unchanged). */
  run?: RunRecord;
  /** Tasks that changed, each at most once. */
  tasks: TaskRecord[];
  /** The iteration that ran, in its final state (undefined: recorded already). */
  iteration?: IterationRecord;
  /** The next iteration, when the run goes on. */
  next?: Pick<PlannedIteration, 'record' | 'create' | 'plan'>;
}

/**
 * Today's spend with the iteration this step counts (none when the run counted it already).
 * A retried step whose first attempt added to the spend but did not save the run counts the
 * iteration twice here: the decision errs towards stopping, the stored spend does not.
 */
function spentToday(
  input: AdvanceInput,
  recorded: ReturnType<typeof recordResult> | undefined,
): ProjectDaySpend | undefined {
  if (!input.today) return undefined;
  const counting = recorded?.changed.run ? (recorded.iteration.receipt?.totalUsd ?? 0) : 0;
  return { ...input.today, usd: roundTo(input.today.usd + counting, 6) };
}

/**
 * @example
 * const { decision, next } = advance({ run, tasks, ran: { record, result }, now, templates });
 * decision.action; // 'continue'; next?.record.iteration === record.iteration + 1
 */
export function advance(input: AdvanceInput): Advance {
  const recorded = input.ran
    ? recordResult({ ...input, record: input.ran.record, result: input.ran.result })
    : undefined;
  const run = recorded?.run ?? input.run;
  const tasks = recorded?.tasks ?? input.tasks;
  // Decided on the tasks as the next iteration finds them (a pending reset reopens some),
  // so that a retried step, which finds them reopened, decides in the same words.
  const decision = decideNext(run, tasksAfterPendingReset(run, tasks), spentToday(input, recorded));
  const changedTasks = new Map<string, TaskRecord>();
  if (recorded?.changed.task) changedTasks.set(recorded.changed.task.taskId, recorded.changed.task);
  let storedRun = recorded?.changed.run;
  let next: Advance['next'];
  if (decision.action === 'continue' && input.plan !== false) {
    // The failed iteration's gates steer the next prompt: the one just recorded, or the last.
    const failed =
      run.lastFailure?.iteration === recorded?.iteration.iteration
        ? recorded?.iteration
        : input.lastFailed;
    const planned = planIteration({
      run,
      tasks,
      failed,
      ...(input.handedOut ? { handedOut: input.handedOut } : {}),
      now: input.now,
      templates: input.templates,
      ...(input.learning ? { learning: input.learning } : {}),
    });
    for (const task of planned.changedTasks) changedTasks.set(task.taskId, task);
    // Planning changes the run when it hands out a number or a reset reopens stories; a
    // retried step that finds both done writes nothing.
    if (storedRun || JSON.stringify(planned.run) !== JSON.stringify(run))
      storedRun = { ...planned.run, updatedAt: input.now };
    next = { record: planned.record, create: planned.create, plan: planned.plan };
  }
  return {
    decision,
    ...(storedRun ? { run: storedRun } : {}),
    tasks: [...changedTasks.values()],
    ...(recorded?.changed.iteration ? { iteration: recorded.changed.iteration } : {}),
    ...(next ? { next } : {}),
  };
}
