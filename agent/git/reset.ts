/** Putting a working tree back: reset, clean, and half-done operations forgotten. */
import { git, succeeds, type Repo } from './command.js';

export async function resetHard(repo: Repo, sha: string): Promise<void> {
  await git(repo, ['reset', '--quiet', '--hard', sha]);
}

/**
 * Removes untracked files and directories. Never `-x`: ignored files (node_modules, build
 * caches) survive. `keep` paths (relative to the repository root) survive too.
 */
export async function clean(repo: Repo, keep: readonly string[] = []): Promise<void> {
  await git(repo, ['clean', '--quiet', '-f', '-d', ...keep.flatMap((path) => ['-e', `/${path}`])]);
}

/**
 * Forgets a rebase, cherry-pick, revert or `am` left half done, without moving HEAD or any
 * branch (each `--quit` only removes that operation's state).
 */
export async function quitPendingOperations(repo: Repo): Promise<void> {
  for (const command of ['rebase', 'cherry-pick', 'revert', 'am'])
    await succeeds(repo, [command, '--quit']);
}
