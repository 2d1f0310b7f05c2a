/**
 * The learning a run works with, frozen at its start (ARCHITECTURE.md: "freeze
 * rules+patterns snapshot"): the project's active rules and the registry's patterns of the
 * project and the organisation, written once to `runs/{runId}/learning-snapshot.json`. A
 * rule promoted or a pattern learned by another run meanwhile reaches this run's next
 * run, never this one: a run's prompts are decided by what it started with.
 */
import type { RunRecord } from '../schemas/run.js';
import { LearningSnapshotSchema, type LearningSnapshot } from '../schemas/learning.js';
import { artefactKeys } from '../shared/artefact-keys.js';
import { readOptionalDocument } from '../shared/optional-document.js';
import type { LearningDeps } from './deps.js';
import { registryScopes } from '../learning/pattern-query.js';

/** Takes the run's snapshot unless it has one (a retried step, a later segment). */
export async function freezeLearning(deps: LearningDeps, run: RunRecord): Promise<void> {
  if (!learns(run)) return;
  const key = artefactKeys.runArtefact(run.runId, 'learning-snapshot.json');
  if (await deps.artefacts.exists(key)) return;
  // The organisation's patterns are read even when this run does not teach them.
  const [rules, ...patterns] = await Promise.all([
    deps.learning.listRules(run.projectId),
    ...registryScopes([run.projectId]).map((scope) => deps.learning.listPatterns(scope)),
  ]);
  const snapshot: LearningSnapshot = LearningSnapshotSchema.parse({
    runId: run.runId,
    projectId: run.projectId,
    takenAt: deps.clock.now().toISOString(),
    rules: rules.filter((rule) => rule.status === 'active'),
    patterns: patterns.flat(),
  } satisfies LearningSnapshot);
  await deps.artefacts.put(key, JSON.stringify(snapshot), 'application/json');
}

/** Whether the run learns: a Ralph run with learning on (an investigation has its own memory). */
export function learns(run: RunRecord): boolean {
  return run.config.learning.enabled && run.investigation === undefined;
}

const cache = new Map<string, LearningSnapshot>();

/**
 * The run's snapshot; undefined for a run that has none (it began before learning existed,
 * or with learning off). Written once, so it is kept for the container's next steps.
 */
export async function readSnapshot(
  deps: LearningDeps,
  runId: string,
): Promise<LearningSnapshot | undefined> {
  const cached = cache.get(runId);
  if (cached) return cached;
  const key = artefactKeys.runArtefact(runId, 'learning-snapshot.json');
  const snapshot = await readOptionalDocument(deps.artefacts, key, LearningSnapshotSchema);
  if (!snapshot) return undefined;
  // One run at a time per container in the common case: keep the latest only.
  cache.clear();
  cache.set(runId, snapshot);
  return snapshot;
}
