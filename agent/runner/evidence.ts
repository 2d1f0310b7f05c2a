/**
 * A change that does not count is kept as evidence and the working copy put back as it
 * was before the agent ran: the code, the branches, and the runner's files.
 */
import type { IterationOutcome } from '../../lambdas/core/schemas/outcome.js';
import type { Repo } from '../git/command.js';
import { commitDetached } from '../git/commits.js';
import { filesChanged } from '../git/diff.js';
import { branchHeads, currentHead, isAncestor, setHeadRef, updateRef } from '../git/refs.js';
import { push } from '../git/remote.js';
import { clean, quitPendingOperations, resetHard } from '../git/reset.js';
import { addAll, hasStagedChanges } from '../git/staging.js';
import { restoreRunnerFiles } from '../working-copy/runner-files.js';
import { branchName } from './branch-check.js';
import { runRemote, type Iteration } from './iteration.js';
import type { Session } from './prepare.js';

export interface KeptEvidence {
  /** The commit that holds the change, and the ref that keeps it; none when nothing changed. */
  evidence?: { ref: string; sha: string };
  /** Side refs that keep moved branch heads the evidence does not hold. */
  moved: string[];
  /** What the evidence changed, outside the runner's files. */
  filesChanged?: string[];
}

/**
 * Commits whatever the agent changed under `refs/ralph/evidence/<run>/<n>` (no branch
 * moves), then puts every local branch back where it was before the agent ran (a moved
 * head that the evidence does not hold is kept as `refs/ralph/moved/<run>/<n>/<branch>`),
 * checks the run branch out again at `base`, and puts the runner's files back to their
 * snapshot. Ignored files (node_modules) and the runner's untracked files survive.
 */
export async function keepEvidence(
  it: Iteration,
  session: Session,
  outcome: IterationOutcome,
): Promise<KeptEvidence> {
  const { workspace, base, snapshot } = session;
  const { files } = workspace;
  await restoreRunnerFiles(files, snapshot);
  await addAll(workspace, files.inRepo);
  // Undefined when the agent deleted the branch HEAD names.
  const head = await currentHead(workspace);
  const kept: Pick<KeptEvidence, 'evidence' | 'filesChanged'> =
    head !== base || (await hasStagedChanges(workspace, files.inRepo))
      ? await commitEvidence(it, session, outcome, head ?? base)
      : {};
  const moved = await restoreBranches(it, session, kept.evidence?.sha);
  await quitPendingOperations(workspace);
  await setHeadRef(workspace, `refs/heads/${it.run.branchName}`);
  await resetHard(workspace, base);
  await clean(workspace, files.inRepo);
  await restoreRunnerFiles(files, snapshot);
  if (kept.evidence) it.log('evidence', kept.evidence);
  if (workspace.cloned)
    for (const ref of [...(kept.evidence ? [kept.evidence.ref] : []), ...moved])
      await pushEvidence(it, workspace, ref);
  return { ...kept, moved };
}

/** Commits the staged change beside the branches, under the iteration's evidence ref. */
async function commitEvidence(
  it: Iteration,
  session: Session,
  outcome: IterationOutcome,
  parent: string,
): Promise<Required<Pick<KeptEvidence, 'evidence' | 'filesChanged'>>> {
  const { workspace, base, plan } = session;
  const sha = await commitDetached(
    workspace,
    `evidence: ${plan.story.id} - ${plan.story.title} (iteration ${it.record.iteration}, ${outcome})`,
    parent,
  );
  const ref = evidenceRef(it);
  await updateRef(workspace, ref, sha);
  session.transcript.note(`runner: change kept as ${ref} (${sha})`);
  return {
    evidence: { ref, sha },
    filesChanged: await filesChanged(workspace, base, sha, workspace.files.inRepo),
  };
}

export function evidenceRef(it: Iteration): string {
  return `refs/ralph/evidence/${it.run.runId}/${it.record.iteration}`;
}

/**
 * Puts every branch recorded before the agent ran back at its recorded head (the run
 * branch at `base`); a branch the agent created stays. Returns the side refs that keep
 * moved heads the evidence commit does not already hold.
 */
async function restoreBranches(
  it: Iteration,
  session: Session,
  evidence: string | undefined,
): Promise<string[]> {
  const { workspace } = session;
  const heads = await branchHeads(workspace);
  const moved: string[] = [];
  for (const [ref, sha] of session.branches) {
    const now = heads.get(ref);
    if (now === sha) continue;
    if (now !== undefined && !(evidence && (await isAncestor(workspace, now, evidence)))) {
      const side = `refs/ralph/moved/${it.run.runId}/${it.record.iteration}/${branchName(ref)}`;
      await updateRef(workspace, side, now);
      moved.push(side);
      session.transcript.note(`runner: ${branchName(ref)} was at ${now}; kept as ${side}`);
    }
    await updateRef(workspace, ref, sha);
  }
  return moved;
}

/** Best effort: the clone is about to vanish, and the ref with it. */
export async function pushEvidence(it: Iteration, repo: Repo, ref: string): Promise<boolean> {
  try {
    await push(repo, runRemote(it), ref);
    return true;
  } catch (error) {
    it.log('evidence-push-failed', { error: (error as Error).message });
    return false;
  }
}

/** Keeps a commit the run branch's push refused as evidence on the remote, if it can. */
export async function keepUnpushed(
  it: Iteration,
  repo: Repo,
  commit: string,
): Promise<string | undefined> {
  const ref = evidenceRef(it);
  try {
    await updateRef(repo, ref, commit);
  } catch (error) {
    it.log('evidence-failed', { error: (error as Error).message });
    return undefined;
  }
  return (await pushEvidence(it, repo, ref)) ? ref : undefined;
}
