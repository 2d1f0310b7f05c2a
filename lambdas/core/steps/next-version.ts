/** The pattern-set version the next iteration scores with: published, or rolled back to. */
import { NotFoundError, VersionConflictError } from '../errors.js';
import type { Pattern, PatternSet } from '../schemas/evaluation.js';
import type { EvaluationDeps } from './evaluation-deps.js';

/** The scoring set's patterns that the restored set lacks, as rejected. */
export function rolledBackPatterns(
  scoredWith: PatternSet,
  restored: PatternSet | undefined,
): Pattern[] {
  const kept = new Set((restored?.patterns ?? []).map((pattern) => pattern.id));
  return scoredWith.patterns
    .filter((pattern) => !kept.has(pattern.id))
    .map((pattern) => ({ ...pattern, status: 'rejected' as const }));
}

/**
 * Publishes the next pattern-set version when the patterns changed, or moves the pointer
 * back on a rollback; returns the version the next iteration scores with. A version this
 * iteration already published (a retried step) is found and reused, not published twice.
 */
export async function publishNext(
  deps: Pick<EvaluationDeps, 'patternSets'>,
  run: { projectId: string; runId: string },
  change: {
    iteration: number;
    scoredWith: PatternSet;
    patterns: Pattern[];
    rolledBackTo: number | undefined;
    /** The patterns the rollback took out: kept as rejected, so they are not proposed again. */
    rolledBack: Pattern[];
    reason: string;
  },
): Promise<number> {
  const current = await deps.patternSets.current(run.projectId);
  if (!current) throw new NotFoundError(`project ${run.projectId} has no pattern set`);
  // What this iteration published is newer than what it scored with: only those are read,
  // not the project's whole history.
  const newer = await deps.patternSets.listVersions(run.projectId, {
    newerThan: change.scoredWith.version,
  });
  const mine = newer.find(
    (version) =>
      version.createdBy.runId === run.runId && version.createdBy.iteration === change.iteration,
  );
  if (mine) return mine.version;

  const rolledBackTo = change.rolledBackTo;
  if (rolledBackTo !== undefined)
    return theirsOnConflict(deps, run.projectId, rolledBackTo, async () => {
      let pointer = current.pointer.version;
      if (pointer !== rolledBackTo)
        pointer = (
          await deps.patternSets.rollback(run.projectId, rolledBackTo, {
            expectedCurrent: pointer,
            reason: change.reason,
          })
        ).version;
      if (change.rolledBack.length === 0) return pointer;
      // The restored set, remembering what harmed it: rejected patterns never score, and
      // a proposal of the same phrase is recognised as a duplicate.
      return publishPatterns(deps, run, change, [...change.patterns, ...change.rolledBack], {
        expectedCurrent: pointer,
        reason: `${change.reason}; ${change.rolledBack.length} rolled-back patterns kept as rejected`,
      });
    });

  if (JSON.stringify(change.patterns) === JSON.stringify(change.scoredWith.patterns))
    return current.version;
  return theirsOnConflict(deps, run.projectId, current.version, () =>
    publishPatterns(deps, run, change, change.patterns, {
      expectedCurrent: current.pointer.version,
      reason: change.reason,
    }),
  );
}

/** The scoring set with other patterns, published as this iteration's version. */
function publishPatterns(
  deps: Pick<EvaluationDeps, 'patternSets'>,
  run: { projectId: string; runId: string },
  change: { iteration: number; scoredWith: PatternSet },
  patterns: Pattern[],
  publish: { expectedCurrent: number; reason: string },
): Promise<number> {
  return deps.patternSets.publish(
    run.projectId,
    { ...change.scoredWith, patterns },
    { ...publish, runId: run.runId, iteration: change.iteration },
  );
}

/**
 * The version `move` leaves the set at; when another run of the project moved the set
 * meanwhile (a version conflict), its version stands (or `fallback` if none can be read).
 */
async function theirsOnConflict(
  deps: Pick<EvaluationDeps, 'patternSets'>,
  projectId: string,
  fallback: number,
  move: () => Promise<number>,
): Promise<number> {
  try {
    return await move();
  } catch (error) {
    if (!(error instanceof VersionConflictError)) throw error;
    return (await deps.patternSets.current(projectId))?.version ?? fallback;
  }
}
