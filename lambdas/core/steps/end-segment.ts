import { runMetrics } from '../observability/loop-metrics.js';
import { RunSummarySchema, type RunSummary } from '../schemas/documents.js';
import { artefactKeys } from '../shared/artefact-keys.js';
import { InvalidTransitionError } from '../errors.js';
import type { IterationRecord } from '../schemas/iteration.js';
import type { LoopState } from '../schemas/loop-state.js';
import type { LoopAction } from '../schemas/loop-action.js';
import type { RunRecord, RunStatus } from '../schemas/run.js';
import type { LoopDeps } from './deps.js';
import { learnFromRun } from './learn-from-run.js';
import { loadRun } from './load.js';
import { describeStepError } from './step-error.js';
import { writeInvestigationReport } from './write-investigation-report.js';

export const TERMINAL_STATUSES: ReadonlySet<RunStatus> = new Set([
  'completed',
  'max_iterations',
  'aborted',
  'cancelled',
  'failed',
]);

/** The status a run ends in, for each way the loop can end it. */
const FINAL_STATUS: Partial<Record<FinalizeInput['action'], RunStatus>> = {
  complete: 'completed',
  max_iterations: 'max_iterations',
  abort: 'aborted',
  cancel: 'cancelled',
  fail: 'failed',
};

/** `fail` comes from the state machine's Catch, with the failed step's `error`. */
export type FinalizeInput = Omit<LoopState, 'action'> & { action: LoopAction | 'fail' };

/** Ends the segment with the run paused; `resume` starts the next segment. */
export async function pauseRun(deps: LoopDeps, input: LoopState): Promise<LoopState> {
  const run = await loadRun(deps.runs, input.runId);
  if (run.status === 'running')
    await deps.runs.saveRun(
      {
        ...run,
        status: 'paused',
        stopReason: input.reason ?? 'paused',
        updatedAt: deps.clock.now().toISOString(),
      },
      run.version,
    );
  return { runId: input.runId, segment: input.segment, action: 'pause', reason: input.reason };
}

/**
 * The FinalizeRun step: ends the run ({@link closeRun}), then learns from it (hints promoted
 * to rules, patterns taught to the registry, `learning-report.json`). Only this step
 * learns, so only its function holds the learning store's permissions; a run closed
 * elsewhere (a paused run cancelled, an execution that died) is learned from when a later
 * segment finalizes it, or not at all.
 */
export async function finalizeRun(deps: LoopDeps, input: FinalizeInput): Promise<LoopState> {
  const { run, iterations } = await endRun(deps, input);
  // After the summary: the run has ended, whatever learning from it meets.
  await learnFromRun(deps, run, iterations);
  return { runId: input.runId, segment: input.segment, reason: run.stopReason };
}

/**
 * Ends the run for good and writes `summary.json` (and an investigate run's
 * `investigation-report.json`). Idempotent: a run that already ended
 * keeps its status.
 */
export async function closeRun(deps: LoopDeps, input: FinalizeInput): Promise<LoopState> {
  const { run } = await endRun(deps, input);
  return { runId: input.runId, segment: input.segment, reason: run.stopReason };
}

/** The run's iterations, read at most once however many parts of its end ask for them. */
type RunIterations = () => Promise<IterationRecord[]>;

function iterationsOnce(deps: LoopDeps, runId: string): RunIterations {
  let read: Promise<IterationRecord[]> | undefined;
  return () => (read ??= deps.runs.listIterations(runId));
}

async function endRun(
  deps: LoopDeps,
  input: FinalizeInput,
): Promise<{ run: RunRecord; iterations: RunIterations }> {
  let run = await loadRun(deps.runs, input.runId);
  const iterations = iterationsOnce(deps, run.runId);
  if (!TERMINAL_STATUSES.has(run.status)) {
    const status = FINAL_STATUS[input.action];
    if (!status)
      throw new InvalidTransitionError(`finalize-run cannot end a run with "${input.action}"`);
    const now = deps.clock.now().toISOString();
    const stopReason = input.error
      ? `a step failed: ${describeStepError(input.error)}`
      : input.reason;
    run = await deps.runs.saveRun(
      { ...run, status, stopReason, endedAt: now, updatedAt: now, cancelRequested: false },
      run.version,
    );
    // Once, by the call that ended it.
    deps.metrics.publish(runMetrics(run, await iterations()), {
      projectId: run.projectId,
      runId: run.runId,
      properties: { status: run.status, stopReason: run.stopReason ?? '' },
    });
  }
  await writeSummary(deps, run, iterations);
  await writeInvestigationReport(deps, run, iterations);
  return { run, iterations };
}

async function writeSummary(
  deps: LoopDeps,
  run: RunRecord,
  runIterations: RunIterations,
): Promise<void> {
  const key = artefactKeys.summary(run.runId);
  if (await deps.artefacts.exists(key)) return;
  const [iterations, tasks] = await Promise.all([runIterations(), deps.runs.listTasks(run.runId)]);
  const summary = RunSummarySchema.parse({
    run,
    tasks,
    iterations: iterations.map((iteration) => ({
      iteration: iteration.iteration,
      taskId: iteration.taskId,
      outcome: iteration.outcome,
      commit: iteration.commit,
      cause: iteration.cause,
    })),
  } satisfies RunSummary);
  await deps.artefacts.put(key, JSON.stringify(summary, null, 2), 'application/json');
}
