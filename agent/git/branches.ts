/** Which branch is checked out, which one new work starts from, and checking one out. */
import { git, succeeds, type Repo } from './command.js';

/** The checked-out branch; undefined on a detached HEAD. */
export async function currentBranch(repo: Repo): Promise<string | undefined> {
  try {
    return await git(repo, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
  } catch {
    return undefined;
  }
}

export function branchExists(repo: Repo, name: string): Promise<boolean> {
  return succeeds(repo, ['show-ref', '--verify', '--quiet', `refs/heads/${name}`]);
}

/**
 * The branch new work starts from: `origin/HEAD` when the remote names one, else `main` or
 * `master` when they exist, else the current branch.
 */
export async function defaultBranch(repo: Repo): Promise<string | undefined> {
  try {
    const ref = await git(repo, ['symbolic-ref', '--quiet', 'refs/remotes/origin/HEAD']);
    return ref.replace(/^refs\/remotes\/origin\//, '');
  } catch {
    // No remote HEAD: fall through to the conventional names.
  }
  for (const name of ['main', 'master']) if (await branchExists(repo, name)) return name;
  return currentBranch(repo);
}

/**
 * Checks out `name`, creating it at `createFrom` (a branch, remote branch or sha) when it
 * does not exist locally.
 */
export async function checkoutBranch(repo: Repo, name: string, createFrom?: string): Promise<void> {
  if (await branchExists(repo, name)) {
    if ((await currentBranch(repo)) !== name) await switchBranch(repo, name);
    return;
  }
  await createBranch(repo, name, createFrom);
}

/** Checks out the existing local branch `name`. */
export async function switchBranch(repo: Repo, name: string): Promise<void> {
  await git(repo, ['checkout', '--quiet', name]);
}

/** Creates the local branch `name` at `from` (a branch, remote branch or sha; default HEAD) and checks it out. */
export async function createBranch(repo: Repo, name: string, from?: string): Promise<void> {
  await git(repo, ['checkout', '--quiet', '--no-track', '-b', name, ...(from ? [from] : [])]);
}
