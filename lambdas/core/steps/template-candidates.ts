/**
 * Code templates from a finished run (cross-loop-learning.md, "Code Templates"): a short
 * block a passing change added, read from the iteration's `diff.patch`. The newest passing
 * iterations only, so that a long run's end reads a bounded number of objects.
 */
import { templateCandidate } from '../learning/registry/template.js';
import type { PatternCandidate } from '../learning/registry/candidate.js';
import { taskCategory } from '../learning/task-category.js';
import { readOptionalText } from '../shared/optional-document.js';
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
      // Undefined when the runner could not store it (its writes are best effort).
      const diff = await readOptionalText(
        deps.artefacts,
        artefactKeys.iteration(run.runId, record.iteration, 'diff.patch'),
      );
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
