/**
 * Branch protection: what the agent (or the gates, which run its code) did to the
 * branches that it must not. The failure path puts them all back (agent/runner/evidence.ts).
 */
import { headRef, isAncestor, listRefs } from '../git/refs.js';
import type { Iteration } from './iteration.js';
import type { Session } from './prepare.js';

export interface BranchCheck {
  /** What was done, ending in "; restored"; undefined when nothing was. */
  problems?: string;
  /** Where the run branch is now, when it exists. */
  runHead?: string;
}

/**
 * HEAD left off the run branch, the run branch deleted or moved so that it no longer holds
 * `base` (or, with `runBranchAt`, moved at all), another branch moved or deleted. New
 * branches and tags may stay.
 */
export async function checkBranches(
  it: Iteration,
  session: Session,
  who: string,
  runBranchAt?: string,
): Promise<BranchCheck> {
  const { workspace, base } = session;
  const branch = it.run.branchName;
  const runRef = `refs/heads/${branch}`;
  const { heads, current } = await listRefs(workspace);
  const problems: string[] = [];
  // Without a current branch, HEAD is detached or names a branch that does not exist.
  const headIs = current ?? (await headRef(workspace));
  if (headIs === undefined) problems.push('left HEAD detached');
  else if (headIs !== runRef) problems.push(`left branch ${branchName(headIs)} checked out`);
  const runHead = heads.get(runRef);
  if (runHead === undefined) problems.push(`deleted branch ${branch}`);
  else if (runBranchAt !== undefined && runHead !== runBranchAt)
    problems.push(`moved branch ${branch}`);
  else if (runHead !== base && !(await isAncestor(workspace, base, runHead)))
    problems.push(`rewrote branch ${branch} (${base.slice(0, 12)} is no longer in its history)`);
  for (const [ref, sha] of session.branches) {
    if (ref === runRef) continue;
    const now = heads.get(ref);
    if (now === undefined) problems.push(`deleted branch ${branchName(ref)}`);
    else if (now !== sha) problems.push(`moved branch ${branchName(ref)}`);
  }
  const at = runHead === undefined ? {} : { runHead };
  if (problems.length === 0) return at;
  const description = `${who} ${problems.join(', ')}; restored`;
  session.transcript.note(`runner: ${description}`);
  it.log('branches-restored', { by: who, problems });
  return { problems: description, ...at };
}

/** `refs/heads/a/b` → `a/b`. */
export function branchName(ref: string): string {
  return ref.replace(/^refs\/heads\//, '');
}
