/** The index: staging changes and asking whether anything is staged. */
import { git, succeeds, type Repo } from './command.js';
import { statusPorcelain } from './status.js';

/** The whole tree from the top, minus `exclude` (paths relative to the repository root). */
export function pathspecs(exclude: readonly string[]): string[] {
  return [':(top)', ...exclude.map((path) => `:(top,exclude)${path}`)];
}

/** Stages every change, deletions and untracked files included; `exclude` paths are left out. */
export async function addAll(repo: Repo, exclude: readonly string[] = []): Promise<void> {
  await git(repo, ['add', '--all', '--', ...pathspecs(exclude)]);
}

/**
 * Stages what changed under `paths` (repository-relative; a directory with a trailing `/`),
 * deletions included. Paths without changes, and ignored ones, are left out rather than
 * refused (as `git add <path>` would refuse them).
 */
export async function addPaths(repo: Repo, paths: readonly string[]): Promise<void> {
  if (paths.length === 0) return;
  const entries = await statusPorcelain(repo, paths);
  const changed = entries.flatMap((entry) => [entry.path, ...(entry.from ? [entry.from] : [])]);
  if (changed.length > 0)
    await git(repo, ['add', '--all', '--', ...changed.map((path) => `:(top,literal)${path}`)]);
}

/** Whether the index differs from HEAD outside `exclude`. */
export async function hasStagedChanges(
  repo: Repo,
  exclude: readonly string[] = [],
): Promise<boolean> {
  return !(await succeeds(repo, ['diff', '--cached', '--quiet', '--', ...pathspecs(exclude)]));
}
