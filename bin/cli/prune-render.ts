/** What `ralph prune` prints: one row per run taken away (or that would be), and the counts. */
import Table from 'cli-table3';
import type { PrunedRun, PruneSelection } from '../../lambdas/core/runs/prune-runs.js';
import { stoppedAt } from '../../lambdas/core/runs/prune-runs.js';
import type { RunRefsCleanup } from '../../lambdas/ports.js';
import { tableStyle } from './table-style.js';

export interface PruneFailure {
  runId: string;
  error: string;
}

export function prunedTable(pruned: readonly PrunedRun[], dryRun: boolean): string {
  const table = new Table({
    head: [
      'run',
      'project',
      'status',
      'stopped',
      dryRun ? 'refs to delete' : 'refs',
      'artefacts',
      'records',
    ],
    style: tableStyle(),
  });
  for (const { run, refs, artefacts, records } of pruned)
    table.push([
      run.runId,
      run.project,
      run.status,
      stoppedAt(run).replace('T', ' ').slice(0, 19),
      refsCell(refs),
      artefacts === undefined ? '—' : String(artefacts),
      records === undefined ? '—' : String(records),
    ]);
  return table.toString();
}

function refsCell(refs: RunRefsCleanup): string {
  if (refs.outcome === 'removed') return String(refs.refs.length);
  if (refs.outcome === 'remote') return 'remote: not touched';
  return 'not cleaned: repository gone';
}

/** The totals, what was kept and why, and each repository whose refs could not be cleaned. */
export function pruneSummary(
  pruned: readonly PrunedRun[],
  kept: PruneSelection['kept'],
  failures: readonly PruneFailure[],
  dryRun: boolean,
): string[] {
  const sum = (pick: (run: PrunedRun) => number | undefined) =>
    pruned.reduce((total, run) => total + (pick(run) ?? 0), 0);
  const refs = sum((run) => (run.refs.outcome === 'removed' ? run.refs.refs.length : 0));
  const lines = [
    dryRun
      ? `would prune ${plural(pruned.length, 'run')} and ${plural(refs, 'ref')} (dry run: nothing deleted)`
      : `pruned ${plural(pruned.length, 'run')}: ${plural(refs, 'ref')}, ${plural(
          sum((run) => run.artefacts),
          'artefact',
        )}, ${plural(
          sum((run) => run.records),
          'record',
        )}`,
  ];
  const keptParts = [
    kept.newer > 0 ? `${kept.newer} newer` : '',
    kept.paused > 0 ? `${kept.paused} paused (--include-paused prunes them)` : '',
    kept.running > 0 ? `${kept.running} running (never pruned; \`ralph cancel\` ends one)` : '',
  ].filter(Boolean);
  if (keptParts.length > 0) lines.push(`kept: ${keptParts.join(', ')}`);
  for (const { run, refs } of pruned)
    if (refs.outcome === 'repository-gone')
      lines.push(
        `${run.runId}: the refs could not be cleaned: ${refs.path} no longer exists (or is no longer a git repository)`,
      );
  for (const { runId, error } of failures)
    lines.push(`${runId}: not pruned (kept, a later prune retries it): ${error}`);
  return lines;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
