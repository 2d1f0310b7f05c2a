/**
 * Loop control's checkpoints (design §3.7): the refs record-iteration decided on, and a
 * reset of the run branch to a checkpoint (a rollback, or the supervisor's RESET).
 */
import type { IterationPlan } from '../../lambdas/core/schemas/plan.js';
import { currentHead, updateRefs } from '../git/refs.js';
import { forcePushHead, push } from '../git/remote.js';
import { resetHard } from '../git/reset.js';
import type { Workspace } from '../working-copy/workspace.js';
import { runRemote, type Iteration } from './iteration.js';

/**
 * Where a checkpoint named `ralph/checkpoint/<run>/<n>` is kept: `refs/ralph/checkpoint/…`,
 * beside the evidence and reset refs, and not under `refs/tags/`, which a person's
 * `git push --tags` would publish.
 */
export function checkpointRef(name: string): string {
  return `refs/${name}`;
}

/** Checkpoint refs only (no reset): they need only the plan and the directory. */
export function tagsOnly(plan: IterationPlan): boolean {
  return plan.checkpoints !== undefined && plan.checkpoints.resetTo === undefined;
}

/**
 * Writes the plan's checkpoint refs and, with `resetTo`, resets the run branch (checked
 * out) to the checkpoint. The commits a reset leaves behind are kept at
 * `refs/ralph/reset/<run>/<n>`. Returns whether the branch moved.
 */
export async function applyCheckpoints(
  it: Iteration,
  workspace: Pick<Workspace, 'dir' | 'spawner' | 'cloned'>,
  plan: IterationPlan,
): Promise<boolean> {
  const work = plan.checkpoints;
  if (!work) return false;
  const target = work.resetTo;
  const head = target ? await currentHead(workspace) : undefined;
  const moves = target !== undefined && head !== undefined && head !== target.commit;
  const kept = `refs/ralph/reset/${it.run.runId}/${it.record.iteration}`;
  await updateRefs(workspace, {
    update: [
      ...work.create.map(({ tag, commit }) => ({ ref: checkpointRef(tag), sha: commit })),
      ...(moves && head ? [{ ref: kept, sha: head }] : []),
    ],
    delete: work.drop.map(checkpointRef),
  });
  if (!moves || !target) return false;
  await resetHard(workspace, target.commit);
  it.log('reset-to-checkpoint', { tag: target.tag, reason: target.reason, kept });
  if (workspace.cloned) {
    // The remote branch goes back too (the next clone starts from the checkpoint), and
    // the commits left behind stay reachable there. Checkpoint refs stay in the clone:
    // the reset needs only the commit, which the remote has.
    await push(workspace, runRemote(it), kept);
    await forcePushHead(workspace, runRemote(it), it.run.branchName);
  }
  return true;
}
