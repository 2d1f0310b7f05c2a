/** The remote: clone, and push (a branch, a side ref, or a reset branch by force). */
import { dirname } from 'node:path';
import type { Spawner } from '../process/spawner.js';
import { git, type Repo } from './command.js';

/** Clone and push move whole histories over the network. */
const NETWORK_TIMEOUT_MS = 10 * 60_000;

/** Clones `url` into `dir` (which must not exist or be empty). */
export async function clone(
  spawner: Spawner,
  url: string,
  dir: string,
  token?: string,
): Promise<void> {
  await git(
    { dir: dirname(dir), spawner },
    ['clone', '--quiet', '--no-hardlinks', '--', url, dir],
    { timeoutMs: NETWORK_TIMEOUT_MS, ...(token === undefined ? {} : { token }) },
  );
}

/** Pushes a local branch (or any ref) to `origin` under the same name. */
export async function push(repo: Repo, ref: string, token?: string): Promise<void> {
  const target = ref.startsWith('refs/') ? ref : `refs/heads/${ref}`;
  await git(repo, ['push', '--quiet', '--no-verify', 'origin', `${target}:${target}`], {
    timeoutMs: NETWORK_TIMEOUT_MS,
    ...(token === undefined ? {} : { token }),
  });
}

/** Moves the remote branch to HEAD even when that is not a fast-forward (a reset). */
export async function forcePushHead(repo: Repo, branch: string, token?: string): Promise<void> {
  await git(
    repo,
    ['push', '--quiet', '--no-verify', '--force', 'origin', `HEAD:refs/heads/${branch}`],
    { timeoutMs: NETWORK_TIMEOUT_MS, ...(token === undefined ? {} : { token }) },
  );
}
