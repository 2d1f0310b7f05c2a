import { NotFoundError, VersionConflictError } from '../errors.js';
import type { RunRecord } from '../schemas/run.js';
import type { CurrentPatternSet, PatternSetStore } from '../../ports.js';

/**
 * The project's current pattern set, published as an empty version 1 the first time a
 * project is evaluated (the heuristics score alone until patterns are learned). Two runs
 * starting the same project at once both try; the loser reads the winner's.
 */
export async function currentPatternSet(
  patternSets: PatternSetStore,
  run: Pick<RunRecord, 'projectId' | 'runId'>,
): Promise<CurrentPatternSet> {
  const existing = await patternSets.current(run.projectId);
  if (existing) return existing;
  try {
    await patternSets.publish(
      run.projectId,
      { schemaVersion: '2.0', patterns: [] },
      { expectedCurrent: null, reason: 'initial: no learned patterns yet', runId: run.runId },
    );
  } catch (error) {
    if (!(error instanceof VersionConflictError)) throw error;
  }
  const created = await patternSets.current(run.projectId);
  if (!created)
    throw new NotFoundError(`project ${run.projectId} has no pattern set after publishing one`);
  return created;
}
