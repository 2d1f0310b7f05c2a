/**
 * The refs a run leaves in a local repository, all under `refs/ralph/<kind>/<runId>/`:
 * evidence (evidence.ts), checkpoints (checkpoints.ts), heads a reset left behind and
 * branch heads the agent moved. Pruning a run deletes them in one `git update-ref --stdin`.
 */
import { resolve } from 'node:path';
import type { RunRefs, RunRefsCleanup } from '../../lambdas/ports.js';
import type { RepoRef } from '../../lambdas/core/schemas/run.js';
import { refNames, updateRefs } from '../git/refs.js';
import { isRepository } from '../git/status.js';
import type { Spawner } from '../process/spawner.js';
import { exists } from '../working-copy/optional-files.js';

const RUNNER_REFS = 'refs/ralph/';

/**
 * Whether `ref` is one of the run's: `refs/ralph/<kind>/<runId>/...`, whatever the kind, so
 * a kind added later is pruned too.
 *
 * @example
 * isRunRef('refs/ralph/evidence/r-1/2', 'r-1'); // true
 * isRunRef('refs/ralph/evidence/r-10/2', 'r-1'); // false
 */
export function isRunRef(ref: string, runId: string): boolean {
  const [kind, owner, ...rest] = ref.slice(RUNNER_REFS.length).split('/');
  return ref.startsWith(RUNNER_REFS) && kind !== '' && owner === runId && rest.length > 0;
}

/** RunRefs over git in the run's local repository; git runs through `spawner`. */
export function gitRunRefs(spawner: Spawner): RunRefs {
  return {
    async remove(
      repo: RepoRef,
      runId: string,
      options: { dryRun: boolean },
    ): Promise<RunRefsCleanup> {
      if (repo.kind === 'git') return { outcome: 'remote', url: repo.url };
      const dir = resolve(repo.path);
      const local = { dir, spawner };
      if (!(await exists(dir)) || !(await isRepository(local)))
        return { outcome: 'repository-gone', path: dir };
      const refs = (await refNames(local, RUNNER_REFS)).filter((ref) => isRunRef(ref, runId));
      if (!options.dryRun) await updateRefs(local, { delete: refs });
      return { outcome: 'removed', refs };
    },
  };
}
