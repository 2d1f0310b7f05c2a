/** Reading and moving refs: HEAD, the branches' heads, tags and the runner's own refs. */
import { git, succeeds, type GitOptions, type Repo } from './command.js';

/** The sha HEAD points at; undefined in a repository without commits. */
export async function currentHead(repo: Repo): Promise<string | undefined> {
  try {
    return await git(repo, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  } catch {
    return undefined;
  }
}

/** The full ref HEAD names (`refs/heads/<branch>`); undefined on a detached HEAD. */
export async function headRef(repo: Repo): Promise<string | undefined> {
  try {
    return await git(repo, ['symbolic-ref', '--quiet', 'HEAD']);
  } catch {
    return undefined;
  }
}

/** Points HEAD at `ref` (`refs/heads/<branch>`), leaving the index and working tree alone. */
export async function setHeadRef(repo: Repo, ref: string): Promise<void> {
  await git(repo, ['symbolic-ref', 'HEAD', ref]);
}

/** Every local branch: full ref name (`refs/heads/...`) to the sha it points at. */
export async function branchHeads(repo: Repo): Promise<Map<string, string>> {
  return (await listRefs(repo)).heads;
}

export interface Refs {
  /** Every local branch: full ref name (`refs/heads/...`) to the sha it points at. */
  heads: Map<string, string>;
  /**
   * The branch HEAD is on (`refs/heads/...`), when HEAD names a branch that exists;
   * undefined on a detached HEAD or one that names a missing branch (tell those apart with
   * `headRef`).
   */
  current: string | undefined;
  /** With `remotes`: origin's remote-tracking branches (`refs/remotes/origin/...`) to shas. */
  remotes: Map<string, string>;
}

/**
 * The local branches (and, with `remotes`, origin's remote-tracking branches) and the one
 * HEAD is on, in one git process.
 */
export async function listRefs(
  repo: Repo,
  options: Pick<GitOptions, 'topOnly'> & { remotes?: boolean } = {},
): Promise<Refs> {
  const out = await git(
    repo,
    [
      'for-each-ref',
      '--format=%(HEAD)%00%(refname)%00%(objectname)',
      'refs/heads',
      ...(options.remotes ? ['refs/remotes/origin'] : []),
    ],
    options.topOnly ? { topOnly: true } : {},
  );
  const refs: Refs = { heads: new Map(), current: undefined, remotes: new Map() };
  for (const line of out.split('\n')) {
    const [mark, ref, sha] = line.split('\0');
    if (!ref || !sha) continue;
    if (ref.startsWith('refs/heads/')) {
      refs.heads.set(ref, sha);
      if (mark === '*') refs.current = ref;
    } else refs.remotes.set(ref, sha);
  }
  return refs;
}

/** Whether `ancestor` is `descendant` or in its history. */
export function isAncestor(repo: Repo, ancestor: string, descendant: string): Promise<boolean> {
  return succeeds(repo, ['merge-base', '--is-ancestor', ancestor, descendant]);
}

export async function updateRef(repo: Repo, ref: string, sha: string): Promise<void> {
  await git(repo, ['update-ref', ref, sha]);
}

/** Creates or moves (`update`) and deletes refs in one git process. */
export async function updateRefs(
  repo: Repo,
  changes: { update?: readonly { ref: string; sha: string }[]; delete?: readonly string[] },
): Promise<void> {
  const lines = [
    ...(changes.update ?? []).map(({ ref, sha }) => `update ${ref} ${sha}`),
    ...(changes.delete ?? []).map((ref) => `delete ${ref}`),
  ];
  if (lines.length === 0) return;
  await git(repo, ['update-ref', '--stdin'], { input: `${lines.join('\n')}\n` });
}

/** Points a detached HEAD at `sha`, leaving the index and working tree alone. */
export async function detachHead(repo: Repo, sha: string): Promise<void> {
  await git(repo, ['update-ref', '--no-deref', 'HEAD', sha]);
}

/** The full names of every ref under `prefix` (`refs/ralph/`), in git's order. */
export async function refNames(repo: Repo, prefix: string): Promise<string[]> {
  const out = await git(repo, ['for-each-ref', '--format=%(refname)', prefix]);
  return out.split('\n').filter((line) => line !== '');
}
