/**
 * One run at a time per repository: a run works in the repository's working tree (its
 * branch, its index, its files), so two runs there would overwrite each other's work. The
 * lock is a pid file in the repository's git directory (the common one, which a linked
 * worktree shares), not in the store: runs from two data dirs must not collide either.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { RalphError } from '../lambdas/core/errors.js';
import { shellWord } from '../lambdas/core/shared/shell-word.js';
import {
  claimPidFile,
  holderAlive,
  readPidFile,
  releasePidFile,
  type PidFile,
} from './pid-file.js';

const LOCK_FILE = 'ralph.lock';
const GIT_TIMEOUT_MS = 10_000;

/** The repository is being worked on by another run that is still alive. */
export class RepositoryInUseError extends RalphError {
  constructor(
    readonly repoPath: string,
    readonly holder: PidFile,
  ) {
    super(
      `repository ${repoPath} is in use by run ${holder.runId} (pid ${holder.pid} since ${holder.since}): one run at a time per repository; wait for it to end (\`ralph watch ${holder.runId}${dataDirFlag(holder)}\`) or stop it (\`ralph cancel ${holder.runId}${dataDirFlag(holder)}\`)`,
      { code: 'REPOSITORY_IN_USE' },
    );
    this.name = 'RepositoryInUseError';
  }
}

function dataDirFlag(holder: PidFile): string {
  return holder.dataDir === undefined ? '' : ` --data-dir ${shellWord(holder.dataDir)}`;
}

/** Where the lock of the repository at `repoPath` lives: `<git common dir>/ralph.lock`. */
export async function repositoryLockPath(repoPath: string): Promise<string> {
  const { stdout } = await promisify(execFile)(
    'git',
    ['-C', repoPath, 'rev-parse', '--path-format=absolute', '--git-common-dir'],
    { timeout: GIT_TIMEOUT_MS },
  );
  return join(stdout.trim(), LOCK_FILE);
}

/**
 * Takes the repository for `holder`; throws RepositoryInUseError naming a live holder. A
 * path that is no git repository has nothing to take: the run's first iteration reports it
 * (`workspace_missing`), with the cause.
 */
export async function lockRepository(
  repoPath: string,
  holder: PidFile,
): Promise<() => Promise<void>> {
  const path = await repositoryLockPath(repoPath).catch(() => undefined);
  if (path === undefined) return async () => undefined;
  const other = await claimPidFile(path, holder);
  if (other) throw new RepositoryInUseError(repoPath, other);
  return () => releasePidFile(path, holder);
}

/** The live holder of the repository's lock, if any; undefined for a repository gone. */
export async function repositoryHolder(repoPath: string): Promise<PidFile | undefined> {
  let path: string;
  try {
    path = await repositoryLockPath(repoPath);
  } catch {
    return undefined;
  }
  const holder = await readPidFile(path);
  return holder && holderAlive(holder) ? holder : undefined;
}
