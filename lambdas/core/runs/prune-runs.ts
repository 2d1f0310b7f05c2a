/**
 * Pruning: which stored runs may go, and taking one away. A run goes in an order that a
 * prune interrupted at any point can be run again to finish: its refs in the repository,
 * then its artefacts, then its records, the run record last (RunStore.deleteRun). Until the
 * run record is gone the run stays listed, so the next prune finds it and repeats every
 * step; each step deletes what is left and no-ops on what is already gone.
 */
import type { RunRecord, RunStatus } from '../schemas/run.js';
import { artefactKeys } from '../shared/artefact-keys.js';
import type { ArtefactStore, RunRefs, RunRefsCleanup, RunStore } from '../../ports.js';

/** Statuses a run never leaves on its own: it is over, and nothing resumes it. */
const ENDED: readonly RunStatus[] = [
  'completed',
  'max_iterations',
  'aborted',
  'cancelled',
  'failed',
];

export interface PruneRule {
  /** Runs that ended (or paused) before this instant may go. */
  cutoff: Date;
  /** Paused runs may be resumed, so they go only when asked. */
  includePaused: boolean;
}

export interface PruneSelection {
  /** Oldest first. */
  prune: RunRecord[];
  kept: { newer: number; running: number; paused: number };
}

/** When a run stopped: its end, or (a paused run) its last change. */
export function stoppedAt(run: RunRecord): string {
  return run.endedAt ?? run.updatedAt;
}

/**
 * Ended runs (and paused ones with `includePaused`) that stopped before the cutoff. A
 * running run is never chosen, even one whose process died: `ralph cancel` ends it first.
 */
export function selectRunsToPrune(runs: readonly RunRecord[], rule: PruneRule): PruneSelection {
  const kept = { newer: 0, running: 0, paused: 0 };
  const prune: RunRecord[] = [];
  for (const run of runs) {
    if (run.status === 'running') kept.running += 1;
    else if (run.status === 'paused' && !rule.includePaused) kept.paused += 1;
    else if (ENDED.includes(run.status) || run.status === 'paused') {
      if (Date.parse(stoppedAt(run)) < rule.cutoff.getTime()) prune.push(run);
      else kept.newer += 1;
    }
  }
  prune.sort((a, b) => Date.parse(stoppedAt(a)) - Date.parse(stoppedAt(b)));
  return { prune, kept };
}

export interface PruneDeps {
  runs: RunStore;
  artefacts: ArtefactStore;
  refs: RunRefs;
}

/** What pruning one run took away; a dry run's counts of artefacts and records are absent. */
export interface PrunedRun {
  run: RunRecord;
  refs: RunRefsCleanup;
  artefacts?: number;
  records?: number;
}

/** Every stored run, all pages. */
export async function listEveryRun(runs: RunStore): Promise<RunRecord[]> {
  const all: RunRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await runs.listRuns({ limit: 100, ...(cursor ? { cursor } : {}) });
    all.push(...page.runs);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return all;
}

/**
 * Takes one run away (refs, artefacts, then records), or with `dryRun` only lists its
 * refs. A repository that is gone does not stop the rest: its refs went with it, or live
 * where this machine cannot see them, and the result says which.
 */
export async function pruneRun(
  deps: PruneDeps,
  run: RunRecord,
  options: { dryRun: boolean },
): Promise<PrunedRun> {
  const refs = await deps.refs.remove(run.repo, run.runId, options);
  if (options.dryRun) return { run, refs };
  const artefacts = await deps.artefacts.deletePrefix(artefactKeys.run(run.runId));
  const records = await deps.runs.deleteRun(run.runId);
  return { run, refs, artefacts, records };
}
