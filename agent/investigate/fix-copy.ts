/**
 * The working copy of one investigation: a fresh fix branch from the base, the agent's
 * analysis file kept out of git, the agent's change staged as one change against the base,
 * and at the end the fix committed, or kept as evidence and the copy put back.
 */
import { appendFile, mkdir, readFile, rm } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import { ANALYSIS_PATH } from '../../lambdas/core/investigate/analysis-file.js';
import type { IterationPlan } from '../../lambdas/core/schemas/plan.js';
import { currentBranch, switchBranch } from '../git/branches.js';
import { git } from '../git/command.js';
import { commit, commitDetached } from '../git/commits.js';
import { stagedChange } from '../git/diff.js';
import { currentHead, setHeadRef, updateRef } from '../git/refs.js';
import { push } from '../git/remote.js';
import { clean, quitPendingOperations, resetHard } from '../git/reset.js';
import { addAll, hasStagedChanges, pathspecs } from '../git/staging.js';
import type { StagedChange } from '../runner/after-agent.js';
import type { CancelWatch } from '../runner/cancel-watch.js';
import { evidenceRef, pushEvidence } from '../runner/evidence.js';
import { runRemote, type Iteration } from '../runner/iteration.js';
import type { Transcript } from '../runner/transcript.js';
import type { Workspace } from '../working-copy/workspace.js';

/** Everything one investigation's stages share. */
export interface FixCopy {
  readonly it: Iteration;
  readonly workspace: Workspace;
  readonly plan: IterationPlan;
  readonly taskId: string;
  /** `ralph/fix/<short>`, checked out, and the sha of the base it starts from. */
  readonly branch: string;
  readonly base: string;
  /** The branch checked out before (a local working copy goes back to it). */
  readonly previous?: string;
  readonly transcript: Transcript;
  readonly cancel: CancelWatch;
  /** Every prompt given, in order (prompt.md). */
  readonly prompts: string[];
}

/**
 * Paths never part of a fix: the runner's files of a Ralph run. (The analysis file is
 * ignored through `.git/info/exclude`; naming an ignored path here would make `git add` fail.)
 */
export function notTheFix(workspace: Workspace): string[] {
  return workspace.files.inRepo;
}

/**
 * Checks out `branch` afresh at `baseBranch` (the local branch, else origin's), so that a
 * retried investigation starts from the base again, and keeps the analysis file out of
 * git. Returns the base's sha.
 */
export async function checkoutFixBranch(
  workspace: Workspace,
  branch: string,
  baseBranch: string,
): Promise<string> {
  const from = baseRef(workspace, baseBranch);
  await git(workspace, ['checkout', '--quiet', '--force', '--no-track', '-B', branch, from]);
  await excludeFromGit(workspace, ANALYSIS_PATH);
  await rm(join(workspace.dir, ANALYSIS_PATH), { force: true });
  return git(workspace, ['rev-parse', 'HEAD']);
}

function baseRef(workspace: Workspace, baseBranch: string): string {
  const { heads, remotes } = workspace.refs;
  if (heads.has(`refs/heads/${baseBranch}`)) return `refs/heads/${baseBranch}`;
  if (remotes.has(`refs/remotes/origin/${baseBranch}`)) return `refs/remotes/origin/${baseBranch}`;
  throw new Error(
    `the base branch ${baseBranch} is in neither ${workspace.dir} nor its origin: set the project route's baseBranch to a branch that exists`,
  );
}

/** Adds `/path` to `.git/info/exclude` (once): ignored, never staged, never committed. */
async function excludeFromGit(workspace: Workspace, path: string): Promise<void> {
  const found = await git(workspace, ['rev-parse', '--git-path', 'info/exclude']);
  const file = isAbsolute(found) ? found : join(workspace.dir, found);
  const line = `/${path}`;
  const text = await readFile(file, 'utf8').catch(() => '');
  if (text.split('\n').includes(line)) return;
  await mkdir(dirname(file), { recursive: true });
  await appendFile(file, `${text === '' || text.endsWith('\n') ? '' : '\n'}${line}\n`);
}

/**
 * The agent's whole change against the base, staged: its commits on the fix branch are
 * folded into the index (one fix, committed by the runner). A `problem` when the agent
 * left the fix branch.
 */
export async function stageFix(fix: FixCopy): Promise<StagedChange | { problem: string }> {
  const { workspace, branch, base } = fix;
  const on = await currentBranch(workspace);
  if (on !== branch)
    return { problem: `the agent left ${on ?? 'a detached HEAD'} checked out, not ${branch}` };
  await addAll(workspace, notTheFix(workspace));
  if ((await currentHead(workspace)) !== base)
    await git(workspace, ['reset', '--quiet', '--soft', base]);
  return stagedChange(workspace, base, notTheFix(workspace), { binary: true });
}

/**
 * Puts the working tree back to the index: what the gates wrote (a build, a coverage
 * report, a formatter's edit) is not the agent's and must not become part of the fix.
 */
export async function dropGateLeftovers(fix: FixCopy): Promise<void> {
  const { workspace } = fix;
  const keep = notTheFix(workspace);
  await git(workspace, ['restore', '--quiet', '--worktree', '--', ...pathspecs(keep)]);
  await clean(workspace, keep);
}

/** Commits the staged fix on the fix branch; the gates' leftovers are cleaned away. */
export async function commitFix(fix: FixCopy, message: string): Promise<string> {
  const sha = await commit(fix.workspace, message);
  await resetHard(fix.workspace, sha);
  await clean(fix.workspace, fix.workspace.files.inRepo);
  return sha;
}

/**
 * Keeps whatever the agent left (the staged fix, or a stray HEAD's work) under the
 * iteration's evidence ref, pushed for a clone, and puts the fix branch back at the base.
 * Returns the ref; undefined when there was nothing to keep.
 */
export async function keepFixEvidence(fix: FixCopy, why: string): Promise<string | undefined> {
  const { it, workspace, base, branch } = fix;
  await addAll(workspace, notTheFix(workspace));
  const head = (await currentHead(workspace)) ?? base;
  let ref: string | undefined;
  if (head !== base || (await hasStagedChanges(workspace, notTheFix(workspace)))) {
    const sha = await commitDetached(
      workspace,
      `evidence: ${fix.taskId} (iteration ${it.record.iteration}, ${why})`,
      head,
    );
    ref = evidenceRef(it);
    await updateRef(workspace, ref, sha);
    fix.transcript.note(`runner: change kept as ${ref} (${sha})`);
    it.log('evidence', { ref, sha });
    if (workspace.cloned) await pushEvidence(it, workspace, ref);
  }
  await quitPendingOperations(workspace);
  await setHeadRef(workspace, `refs/heads/${branch}`);
  await updateRef(workspace, `refs/heads/${branch}`, base);
  await resetHard(workspace, base);
  await clean(workspace, workspace.files.inRepo);
  return ref;
}

/**
 * Leaves a local working copy as it was found: the analysis file removed, the branch that
 * was checked out checked out again, and a fix branch without a verified fix deleted (it
 * would only point at the base). A clone is thrown away: nothing to do.
 */
export async function leaveFixCopy(fix: FixCopy, verified: boolean): Promise<void> {
  const { workspace, branch, previous } = fix;
  await rm(join(workspace.dir, ANALYSIS_PATH), { force: true });
  if (workspace.cloned) return;
  if (previous !== undefined && previous !== branch) await switchBranch(workspace, previous);
  if (!verified && previous !== branch) await git(workspace, ['branch', '--quiet', '-D', branch]);
}

/**
 * Pushes the verified fix of a clone to a private ref, `refs/ralph/fixes/<run>/<task>`:
 * not to its branch, which the pull request step creates through the code host once it
 * has saved its record. Returns the ref.
 */
export async function pushFix(fix: FixCopy, sha: string): Promise<string> {
  const ref = `refs/ralph/fixes/${fix.it.run.runId}/${fix.taskId}`;
  await updateRef(fix.workspace, ref, sha);
  await push(fix.workspace, runRemote(fix.it), ref);
  return ref;
}
