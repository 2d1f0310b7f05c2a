/**
 * What the Advance step needs to put what was learned in the next plan: the hint the
 * iteration just recorded teaches (a task that passed after failing), the run's hints,
 * its frozen snapshot, and a retriever over the snapshot's patterns, built once per run
 * and container (the snapshot never changes).
 */
import { hintFromPass } from '../learning/hints.js';
import { placeless, problemSignature } from '../learning/issue-key.js';
import { planLearning, type SearchPatterns } from '../learning/plan-learning.js';
import type { LearningOf } from '../loop/plan-iteration.js';
import { recordedIteration } from '../loop/record-result.js';
import type { IterationRecord } from '../schemas/iteration.js';
import type { IterationResult } from '../schemas/iteration-result.js';
import type { LearningSnapshot, RunHint } from '../schemas/learning.js';
import type { RunRecord } from '../schemas/run.js';
import type { TaskRecord } from '../schemas/task.js';
import type { LoopDeps } from './deps.js';
import { learns, readSnapshot } from './learning-snapshot.js';

export interface LearningContext {
  learningOf: LearningOf;
  /** The hint the iteration that just ran teaches, to be kept with the run. */
  newHint?: RunHint;
}

/**
 * @example
 * const context = await learningContext(deps, run, tasks, ran);
 * if (context?.newHint) await deps.learning.putHint(context.newHint);
 */
export async function learningContext(
  deps: LoopDeps,
  run: RunRecord,
  tasks: readonly TaskRecord[],
  ran: { record: IterationRecord; result: IterationResult } | undefined,
): Promise<LearningContext | undefined> {
  if (!learns(run)) return undefined;
  const [snapshot, hints, newHint] = await Promise.all([
    readSnapshot(deps, run.runId),
    deps.learning.listHints(run.runId),
    hintOf(deps, run, tasks, ran),
  ]);
  const known = newHint
    ? [...hints.filter((hint) => hint.hintId !== newHint.hintId), newHint]
    : hints;
  const search = searchOver(deps, snapshot);
  const learningOf: LearningOf = (task, planned) => {
    const history = (planned.control?.history ?? []).filter(
      (entry) => entry.taskId === task.taskId,
    );
    // The failure's own text when it is this task's (the assertion line of a test
    // runner's output), else the signature loop control kept.
    const failure = planned.lastFailure?.taskId === task.taskId ? planned.lastFailure : undefined;
    const kept = history.findLast((entry) => entry.errorSignature)?.errorSignature;
    const lastError = failure
      ? problemSignature(failure.detail)
      : kept === undefined
        ? undefined
        : placeless(kept);
    return planLearning({
      config: planned.config.learning,
      runId: planned.runId,
      task,
      taskPaths: [...new Set(history.flatMap((entry) => entry.filesTouchedUncommitted))],
      lastError,
      hints: known,
      snapshot,
      search,
    });
  };
  return { learningOf, ...(newHint ? { newHint } : {}) };
}

/** The hint of a pass after failures (only a retried task can teach one). */
async function hintOf(
  deps: LoopDeps,
  run: RunRecord,
  tasks: readonly TaskRecord[],
  ran: { record: IterationRecord; result: IterationResult } | undefined,
): Promise<RunHint | undefined> {
  if (!ran || ran.result.outcome !== 'passed' || ran.record.attempt === 1) return undefined;
  const task = tasks.find((candidate) => candidate.taskId === ran.record.taskId);
  if (!task) return undefined;
  const passed = recordedIteration(ran.record, ran.result);
  const taskIterations = (await deps.runs.listIterations(run.runId))
    .filter((record) => record.taskId === task.taskId && record.iteration !== passed.iteration)
    .concat(passed);
  // Made at the time the iteration ended, so a retried step makes the same hint.
  return hintFromPass({
    runId: run.runId,
    story: task.story,
    taskIterations,
    passed,
    now: ran.result.endedAt,
  });
}

let retriever: { runId: string; search: SearchPatterns } | undefined;

function searchOver(
  deps: LoopDeps,
  snapshot: LearningSnapshot | undefined,
): SearchPatterns | undefined {
  if (!snapshot || snapshot.patterns.length === 0) return undefined;
  if (retriever?.runId !== snapshot.runId) {
    const built = deps.retrievers(snapshot.patterns);
    retriever = { runId: snapshot.runId, search: (query, limit) => built.search(query, limit) };
  }
  return retriever.search;
}
