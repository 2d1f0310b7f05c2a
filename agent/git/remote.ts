/**
 * The remote: clone, and push (a branch, a side ref, or a reset branch by force).
 *
 * The agent may have rewritten the working copy's `.git/config`: `remote.origin.url`, a
 * `url.<base>.insteadOf`, an `http.proxy` with `http.sslVerify` off. A push from there
 * would send the token wherever it says. So a push never runs in the working copy: it runs
 * in a scratch bare repository of the runner's own, which borrows the working copy's
 * objects (`objects/info/alternates`: data, never configuration) and pushes to the URL the
 * run names.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Spawner } from '../process/spawner.js';
import { git, type Repo } from './command.js';

/** Clone and push move whole histories over the network. */
const NETWORK_TIMEOUT_MS = 10 * 60_000;

/** Where the run's repository lives, and the token that may write to it. */
export interface Remote {
  /** The URL the run names (never the working copy's `remote.origin.url`). */
  readonly url: string;
  readonly token?: string;
}

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

/** Pushes a local branch (or any ref) to the remote under the same name. */
export async function push(repo: Repo, remote: Remote, ref: string): Promise<void> {
  const target = ref.startsWith('refs/') ? ref : `refs/heads/${ref}`;
  await pushFromScratch(repo, remote, target, target, { force: false });
}

/** Moves the remote branch to HEAD even when that is not a fast-forward (a reset). */
export async function forcePushHead(repo: Repo, remote: Remote, branch: string): Promise<void> {
  await pushFromScratch(repo, remote, 'HEAD', `refs/heads/${branch}`, { force: true });
}

/**
 * Pushes what `source` names in the working copy as `target`, from a fresh bare repository
 * in the runner's temporary directory (which the agent's user cannot reach).
 */
async function pushFromScratch(
  repo: Repo,
  remote: Remote,
  source: string,
  target: string,
  options: { force: boolean },
): Promise<void> {
  const [sha, objects] = await Promise.all([
    git(repo, ['rev-parse', '--verify', '--end-of-options', `${source}^{object}`]),
    git(repo, ['rev-parse', '--path-format=absolute', '--git-path', 'objects']),
  ]);
  const scratch = await mkdtemp(join(tmpdir(), 'ralph-push-'));
  try {
    const own: Repo = { dir: scratch, spawner: repo.spawner };
    await git(own, ['init', '--quiet', '--bare'], { asRunner: true });
    await writeFile(join(scratch, 'objects', 'info', 'alternates'), `${objects}\n`);
    await git(
      own,
      [
        'push',
        '--quiet',
        '--no-verify',
        ...(options.force ? ['--force'] : []),
        '--',
        remote.url,
        `${sha}:${target}`,
      ],
      {
        timeoutMs: NETWORK_TIMEOUT_MS,
        asRunner: true,
        ...(remote.token === undefined ? {} : { token: remote.token }),
      },
    );
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
