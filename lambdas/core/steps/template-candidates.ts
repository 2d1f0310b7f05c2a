/**
 * Code templates from a finished run (cross-loop-learning.md, "Code Templates"): a short
 * block a passing change added, read from the iteration's `diff.patch`. The newest passing
 * iterations only, so that a long run's end reads a bounded number of objects.
 */
import { templateCandidate } from '../learning/registry/template.js';
import type { PatternCandidate } from '../learning/registry/candidate.js';
import { taskCategory } from '../learning/task-category.js';
import { NotFoundError } from '../errors.js';
import type { IterationRecord } from '../schemas/iteration.js';
import type { RunRecord } from '../schemas/run.js';
import type { TaskRecord } from '../schemas/task.js';
import { artefactKeys } from '../shared/artefact-keys.js';
import type { LoopDeps } from './deps.js';

/** Passing changes read at a run's end, newest first. */
export const TEMPLATE_DIFFS = 20;

export async function templateCandidates(
  deps: Pick<LoopDeps, 'artefacts'>,
  run: RunRecord,
  tasks: readonly TaskRecord[],
  recorded: readonly IterationRecord[],
  endedAt: string,
): Promise<PatternCandidate[]> {
  const passing = recorded.filter((record) => record.outcome === 'passed').slice(-TEMPLATE_DIFFS);
  const found = await Promise.all(
    passing.map(async (record) => {
      const task = tasks.find((candidate) => candidate.taskId === record.taskId);
      const diff = await diffOf(deps, run.runId, record.iteration);
      return task && diff
        ? templateCandidate(
            { runId: run.runId, projectId: run.projectId, endedAt },
            record,
            diff,
            taskCategory(task.story),
          )
        : undefined;
    }),
  );
  return found.filter((candidate) => candidate !== undefined);
}

/** The change, or undefined when the runner could not store it (its writes are best effort). */
async function diffOf(
  deps: Pick<LoopDeps, 'artefacts'>,
  runId: string,
  iteration: number,
): Promise<string | undefined> {
  try {
    return await deps.artefacts.getText(artefactKeys.iteration(runId, iteration, 'diff.patch'));
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}
