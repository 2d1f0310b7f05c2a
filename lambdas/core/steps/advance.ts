/**
 * The Advance step: after the runner (and, when the run evaluates, after the evaluation
 * steps) it records the iteration, decides what comes next and, when the run goes on,
 * plans the next iteration, all in one step (loop/advance.ts decides; this reads and
 * writes). A segment's first step (init-run) advances the same way, with nothing to record.
 *
 * Safe to retry: every record remembers whether it counted the iteration, and a number
 * handed out but not yet run is reused, so a retried step completes only the writes its
 * first attempt did not.
 */
import { iterationMetrics } from '../observability/loop-metrics.js';
import { InvalidTransitionError } from '../errors.js';
import type { IterationRecord } from '../schemas/iteration.js';
import type { IterationResult } from '../schemas/iteration-result.js';
import type { LoopState } from '../schemas/loop-state.js';
import type { RunRecord } from '../schemas/run.js';
import type { TaskRecord } from '../schemas/task.js';
import { artefactKeys } from '../shared/artefact-keys.js';
import { advance, type Advance } from '../loop/advance.js';
import type { ProjectDaySpend } from '../costs/budget.js';
import type { LoopDeps } from './deps.js';
import { iterationResultOf, readResultReport, type MissingResult } from './iteration-result.js';
import { learningContext } from './learning-context.js';
import { loadIteration, loadRun } from './load.js';

/** The run and its tasks as the step read them. */
export interface LoadedRun {
  run: RunRecord;
  tasks: TaskRecord[];
}

/**
 * Advances the loop from `input` (the state after the runner, or a segment's start).
 *
 * @example
 * const next = await advanceStep(deps, { runId, segment: 1, iteration: 3 });
 * next.action; // 'continue', with next.planned and next.iteration === 4
 */
export interface AdvanceOptions {
  /** What an iteration without result.json is recorded as. @default 'runner_error' */
  missingOutcome?: MissingResult['outcome'];
  /** Plan the next iteration when the run goes on. @default true (false: record only). */
  plan?: boolean;
}

export async function advanceStep(
  deps: LoopDeps,
  input: LoopState,
  options: AdvanceOptions = {},
): Promise<LoopState> {
  // Everything the step reads is read at once: one round trip in the common case.
  const [run, tasks, ran] = await Promise.all([
    loadRun(deps.runs, input.runId),
    deps.runs.listTasks(input.runId),
    readRan(deps, input, options),
  ]);
  return advanceFrom(deps, { run, tasks }, input, ran, options);
}

/** {@link advanceStep} for a run and tasks already read (a segment's first step). */
export async function advanceLoaded(
  deps: LoopDeps,
  loaded: LoadedRun,
  input: LoopState,
  options: AdvanceOptions = {},
): Promise<LoopState> {
  return advanceFrom(deps, loaded, input, await readRan(deps, input, options), options);
}

async function advanceFrom(
  deps: LoopDeps,
  { run, tasks }: LoadedRun,
  input: LoopState,
  ran: Ran | undefined,
  options: AdvanceOptions,
): Promise<LoopState> {
  // Only a segment's start, or a retried step, needs a second round trip.
  const [lastFailed, handedOut, learning, today] = await Promise.all([
    ran || !run.lastFailure
      ? undefined
      : deps.runs.getIteration(run.runId, run.lastFailure.iteration),
    readHandedOut(deps, run, ran?.record.iteration),
    // Only a step that plans learns: one that records only (a cancel, an execution that
    // died) runs in functions that hold none of the learning store's permissions.
    (options.plan ?? true) ? learningContext(deps, run, tasks, ran) : undefined,
    projectSpendToday(deps, run),
  ]);
  const step = advance({
    run,
    tasks,
    ...(ran ? { ran } : {}),
    ...(lastFailed ? { lastFailed } : {}),
    ...(handedOut ? { handedOut } : {}),
    now: deps.clock.now().toISOString(),
    templates: deps.templates,
    plan: options.plan ?? true,
    ...(learning ? { learning: learning.learningOf } : {}),
    ...(today ? { today } : {}),
  });
  if (step.next && run.status !== 'running')
    throw new InvalidTransitionError(`run ${run.runId} is ${run.status}, not running`);
  // Kept before the plan that may carry it is written; the same hint again is a no-op.
  if (learning?.newHint) await deps.learning.putHint(learning.newHint);
  // Before the records that mark the iteration counted: a retried step adds it again, and
  // the spend item, which keeps what it counted, adds it once.
  const receipt = step.iteration?.receipt;
  if (step.iteration && receipt && receipt.totalUsd > 0)
    await deps.runs.addProjectSpend({
      projectId: run.projectId,
      day: utcDay(step.iteration.endedAt ?? deps.clock.now().toISOString()),
      usd: receipt.totalUsd,
      countedAs: `${run.runId}#${step.iteration.iteration}`,
    });
  await write(deps, { run, tasks }, step, ran?.record);
  // Once, by the step that recorded it (a retried step finds it recorded and emits nothing).
  if (step.iteration)
    deps.metrics.publish(iterationMetrics(step.iteration, (step.run ?? run).storiesPassed), {
      projectId: run.projectId,
      runId: run.runId,
      iteration: step.iteration.iteration,
    });
  const { decision, next } = step;
  return {
    runId: input.runId,
    segment: input.segment,
    ...(next || input.iteration !== undefined
      ? { iteration: next?.record.iteration ?? input.iteration }
      : {}),
    action: decision.action,
    reason: decision.reason,
    ...(next ? { planned: true } : {}),
    // Evaluation (judge and cheap mode) scores a Ralph run's work: an investigation's
    // deliverable is its analysis and verified fix, which it checks itself.
    ...(next && run.config.evaluation.enabled && !run.investigation ? { evaluate: true } : {}),
    ...(next && run.investigation !== undefined ? { investigate: true } : {}),
  };
}

const utcDay = (iso: string): string => new Date(iso).toISOString().slice(0, 10);

/** What the project spent today, read only when a per-day budget is set. */
async function projectSpendToday(
  deps: LoopDeps,
  run: RunRecord,
): Promise<ProjectDaySpend | undefined> {
  if (run.config.limits.maxCostUsdPerProjectDay === undefined) return undefined;
  const day = utcDay(deps.clock.now().toISOString());
  return { day, usd: await deps.runs.getProjectSpend(run.projectId, day) };
}

interface Ran {
  record: IterationRecord;
  result: IterationResult;
}

/** The iteration that ran, when the state names one: its record and its result. */
async function readRan(
  deps: LoopDeps,
  input: LoopState,
  options: AdvanceOptions,
): Promise<Ran | undefined> {
  if (input.iteration === undefined) return undefined;
  const [record, report] = await Promise.all([
    loadIteration(deps.runs, input.runId, input.iteration),
    readResultReport(deps, input.runId, input.iteration),
  ]);
  const result = iterationResultOf(deps, record, report, {
    ...(options.missingOutcome ? { outcome: options.missingOutcome } : {}),
    ...(input.error ? { error: input.error } : {}),
  });
  return { record, result };
}

/**
 * The record under a number handed out that will still be unrecorded once this step has
 * recorded what it records (a retried step, or a segment that died before running it).
 */
async function readHandedOut(
  deps: LoopDeps,
  run: RunRecord,
  recording: number | undefined,
): Promise<{ record: IterationRecord | undefined } | undefined> {
  const recordedUpTo = Math.max(run.lastRecordedIteration, recording ?? 0);
  if (run.iterationsStarted <= recordedUpTo) return undefined;
  return { record: await deps.runs.getIteration(run.runId, run.iterationsStarted) };
}

/**
 * The run, its tasks and the iteration that ran are written at once, each conditional on
 * the version read; all settle before anything is thrown, so a retry starts from records
 * that are no longer being written. The next iteration's record and plan follow: its
 * number is this step's alone once the run is written.
 */
async function write(
  deps: LoopDeps,
  loaded: LoadedRun,
  step: Advance,
  ran: IterationRecord | undefined,
): Promise<void> {
  await allOrFirstFailure([
    ...step.tasks.map((task) => deps.runs.saveTask(task, task.version)),
    step.run ? deps.runs.saveRun(step.run, loaded.run.version) : undefined,
    step.iteration && ran ? deps.runs.saveIteration(step.iteration, ran.version) : undefined,
  ]);
  const { next } = step;
  if (!next) return;
  // A retried write of the same plan is the same bytes, which the write-once store accepts.
  await Promise.all([
    next.create ? deps.runs.createIteration(next.record) : undefined,
    deps.artefacts.put(
      artefactKeys.iteration(next.record.runId, next.record.iteration, 'plan.json'),
      JSON.stringify(next.plan, null, 2),
      'application/json',
    ),
  ]);
}

/** Promise.all, except that every promise settles before the first failure is thrown. */
async function allOrFirstFailure(promises: readonly (Promise<unknown> | undefined)[]) {
  const settled = await Promise.allSettled(promises);
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}
