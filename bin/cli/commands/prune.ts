import { ChildProcessSpawner } from '../../../agent/process/child-process-spawner.js';
import { gitRunRefs } from '../../../agent/runner/run-refs.js';
import {
  listEveryRun,
  pruneRun,
  selectRunsToPrune,
  type PrunedRun,
} from '../../../lambdas/core/runs/prune-runs.js';
import { parseDuration } from '../../../lambdas/core/shared/duration.js';
import type { Output } from '../output.js';
import type { BackendOptions } from '../backend/with-backend.js';
import { CliError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { prunedTable, pruneSummary, type PruneFailure } from '../prune-render.js';
import { withSession } from '../session.js';

export interface PruneOptions extends BackendOptions {
  /** `30d`, `12h`, `2w`, `0s`: runs that stopped longer ago than this go. */
  olderThan: string;
  dryRun?: boolean;
  includePaused?: boolean;
}

/**
 * `ralph prune`: removes ended runs that stopped before `--older-than` from the local store
 * (records and artefacts) and the refs they left in their repositories. One run's failure
 * leaves that run stored (a later prune retries it) and does not stop the others.
 */
export async function pruneCommand(options: PruneOptions, output: Output): Promise<number> {
  if (options.endpoint)
    throw new CliError(
      `ralph prune works on the local stack only (its store, and the refs in repositories on this machine), not through --endpoint ${options.endpoint}: leave out --endpoint (or unset RALPH_ENDPOINT)`,
      EXIT.invalidInput,
    );
  const olderThanMs = parseDuration(options.olderThan, '--older-than');
  const dryRun = options.dryRun ?? false;
  return withSession(options, async ({ stack }) => {
    const { runs, artefacts, clock } = stack.deps;
    const cutoff = new Date(clock.now().getTime() - olderThanMs);
    const { prune, kept } = selectRunsToPrune(await listEveryRun(runs), {
      cutoff,
      includePaused: options.includePaused ?? false,
    });
    const deps = { runs, artefacts, refs: gitRunRefs(new ChildProcessSpawner()) };
    const pruned: PrunedRun[] = [];
    const failures: PruneFailure[] = [];
    for (const run of prune) {
      // Another ralph process may have taken the run up again (a resume) since it was
      // listed: a run some process runs is never pruned.
      if (await stack.isRunLive(run.runId)) continue;
      try {
        pruned.push(await pruneRun(deps, run, { dryRun }));
      } catch (error) {
        failures.push({ runId: run.runId, error: (error as Error).message });
      }
    }

    const when = `stopped before ${cutoff.toISOString().replace('T', ' ').slice(0, 19)} (older than ${options.olderThan})`;
    if (pruned.length === 0 && failures.length === 0) output.line(`no ended runs ${when}`);
    else {
      output.line(`${dryRun ? 'would prune' : 'pruned'}: ended runs ${when}`);
      if (pruned.length > 0) output.line(prunedTable(pruned, dryRun));
    }
    for (const line of pruneSummary(pruned, kept, failures, dryRun)) output.line(line);
    output.data({
      dryRun,
      olderThan: options.olderThan,
      cutoff: cutoff.toISOString(),
      pruned: pruned.map(({ run, ...removed }) => ({
        runId: run.runId,
        status: run.status,
        stoppedAt: run.endedAt ?? run.updatedAt,
        ...removed,
      })),
      failed: failures,
      kept,
    });
    return failures.length > 0 ? EXIT.internal : EXIT.ok;
  });
}
