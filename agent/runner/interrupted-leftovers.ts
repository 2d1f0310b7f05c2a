/**
 * An iteration whose ralph process was killed mid-agent (`kill -9`, a lost machine) leaves
 * the agent's half-done change in the working tree, and nothing recorded it. The next
 * iteration of the same run finds the tree dirty: when the iteration before it was
 * interrupted and the tree is still on the run branch, the change is that agent's, not the
 * person's. The runner keeps it as that iteration's evidence
 * (`refs/ralph/evidence/<run>/<n>`, as it keeps any change that did not count) and goes on
 * from a clean tree, instead of pausing the run on its own leftovers. Nothing is lost: the
 * evidence commit holds every changed and new file; prd.json and progress.txt stay as they
 * are.
 */
import { resolve } from 'node:path';
import { commitDetached } from '../git/commits.js';
import { headRef, updateRef } from '../git/refs.js';
import { clean, resetHard } from '../git/reset.js';
import { addAll, hasStagedChanges } from '../git/staging.js';
import type { Repo } from '../git/command.js';
import { readRunnerFiles, runnerFiles } from '../working-copy/runner-files.js';
import type { WorkspaceProblem } from '../working-copy/workspace.js';
import { writeNoFollow } from '../working-copy/optional-files.js';
import type { Iteration } from './iteration.js';

/** The evidence kept for the interrupted iteration; undefined when the dirt is not its. */
export async function keepInterruptedLeftovers(
  it: Iteration,
  problem: WorkspaceProblem,
): Promise<{ ref: string; sha: string } | undefined> {
  const { run, record } = it;
  if (problem.outcome !== 'workspace_dirty' || run.repo.kind !== 'local') return undefined;
  const previous = record.iteration - 1;
  if (previous < 1) return undefined;
  const before = await it.deps.runs.getIteration(run.runId, previous);
  if (before?.outcome !== 'interrupted') return undefined;
  const repo: Repo = { dir: resolve(run.repo.path), spawner: it.deps.spawner };
  if ((await headRef(repo)) !== `refs/heads/${run.branchName}`) return undefined;

  const files = runnerFiles(repo.dir, run.prdPath);
  const kept = await readRunnerFiles(files);
  await addAll(repo, files.inRepo);
  if (!(await hasStagedChanges(repo, files.inRepo))) return undefined;
  const sha = await commitDetached(
    repo,
    `evidence: ${before.taskId} - ${before.taskTitle} (iteration ${previous}, interrupted; kept by iteration ${record.iteration})`,
  );
  const ref = `refs/ralph/evidence/${run.runId}/${previous}`;
  await updateRef(repo, ref, sha);
  await resetHard(repo, 'HEAD');
  await clean(repo, files.inRepo);
  // The reset put tracked runner files back to HEAD's: written back as they were.
  for (const [path, content] of [
    [files.prd, kept.prd],
    [files.progress, kept.progress],
    [files.lastBranch, kept.lastBranch],
  ] as const)
    if (content !== undefined) await writeNoFollow(path, content);
  it.log('interrupted-leftovers-kept', { iteration: previous, ref, sha });
  return { ref, sha };
}
