/**
 * Ralph's own files beside prd.json (progress.txt, `.last-branch`, `archive/`): where they
 * are, prepared before each agent the way ralph.sh prepares them, and put back whatever the
 * agent did to them.
 */
import { mkdir, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { RalphError } from '../../lambdas/core/errors.js';
import { branchFeatureName } from '../../lambdas/core/ralph/prd.js';
import { newProgressLog } from '../../lambdas/core/ralph/progress-log.js';
import { copyNoFollow, exists, occupied, readOptional, writeNoFollow } from './optional-files.js';

/** Ralph's files beside prd.json: the runner owns them, the agent must not change them. */
export interface RunnerFiles {
  prd: string;
  progress: string;
  lastBranch: string;
  archiveDir: string;
  /** The repository's top directory. */
  root: string;
  /**
   * The same paths relative to the repository root (`/`-separated; the archive as a
   * directory with a trailing `/`), for those inside the repository.
   */
  inRepo: string[];
}

export function runnerFiles(repoDir: string, prdPath: string): RunnerFiles {
  const prd = isAbsolute(prdPath) ? prdPath : resolve(repoDir, prdPath);
  const dir = dirname(prd);
  const files = {
    prd,
    progress: join(dir, 'progress.txt'),
    lastBranch: join(dir, '.last-branch'),
    archiveDir: join(dir, 'archive'),
  };
  const inRepo = [files.prd, files.progress, files.lastBranch, files.archiveDir]
    .map((path) => relative(repoDir, path).split(sep).join('/'))
    .map((path, index) => (index === 3 ? `${path}/` : path))
    .filter((path) => path !== '' && !path.startsWith('../') && !isAbsolute(path));
  return { ...files, root: resolve(repoDir), inRepo };
}

/**
 * The runner is root in the container and writes these files itself: a directory on the
 * way to them that is a symbolic link (the agent can commit `scripts/ralph` as a link to
 * `/etc`) would take its writes out of the repository. Refused instead, before any write.
 * Paths the user placed outside the repository (an absolute prd path) are theirs to place.
 */
export async function checkRunnerDirectories(files: RunnerFiles): Promise<void> {
  if (files.inRepo.length === 0) return;
  const root = await realpath(files.root);
  for (const dir of [dirname(files.prd), files.archiveDir]) {
    if (!(await occupied(dir))) continue;
    const real = await realpath(dir);
    if (real !== join(root, relative(files.root, dir)))
      throw new RalphError(
        `${relative(files.root, dir)} is a symbolic link (to ${real}); the runner does not write prd.json, progress.txt or the archive through links`,
        { code: 'RUNNER_FILES_LINKED' },
      );
  }
}

/** Whether a repository-relative path is one of the runner's files. */
export function isRunnerPath(files: RunnerFiles, path: string): boolean {
  return files.inRepo.some((owned) =>
    owned.endsWith('/') ? path.startsWith(owned) : path === owned,
  );
}

/** The runner's files as read before the run branch is checked out; undefined: absent. */
export interface RunnerFileContents {
  prd?: string;
  progress?: string;
  lastBranch?: string;
}

/**
 * Reads prd.json, progress.txt and `.last-branch` as they are now: on the branch the user
 * sits on, or untracked. Checking out the run branch may remove them (a branch created from
 * the default branch lacks a prd.json committed only on `dev`).
 */
export async function readRunnerFiles(files: RunnerFiles): Promise<RunnerFileContents> {
  const [prd, progress, lastBranch] = await Promise.all(
    [files.prd, files.progress, files.lastBranch].map(readOptional),
  );
  return {
    ...(prd === undefined ? {} : { prd }),
    ...(progress === undefined ? {} : { progress }),
    ...(lastBranch === undefined ? {} : { lastBranch }),
  };
}

/**
 * After the checkout: writes back those of `before` that the checkout removed (one the
 * run branch has stays as the branch has it). The first runner or counted commit then
 * commits them on the run branch. A run branch the checkout just created starts with the
 * prd.json the user gave (`before`), whatever the default branch it came from holds: that
 * one is the previous feature's, and the run was started with this one.
 *
 * @returns the paths written back.
 */
export async function restoreMissingRunnerFiles(
  files: RunnerFiles,
  before: RunnerFileContents,
  options: { branchCreated?: boolean } = {},
): Promise<string[]> {
  const written: string[] = [];
  for (const [path, content, wins] of [
    [files.prd, before.prd, options.branchCreated === true],
    [files.progress, before.progress, false],
    [files.lastBranch, before.lastBranch, false],
  ] as const) {
    if (content === undefined) continue;
    if (await occupied(path)) {
      if (!wins || (await readOptional(path)) === content) continue;
    }
    await mkdir(dirname(path), { recursive: true });
    await checkRunnerDirectories(files);
    await writeNoFollow(path, content);
    written.push(path);
  }
  return written;
}

export interface PreparedRunnerFiles {
  /** `.last-branch` was written: this branch is new to this prd.json (or the file was). */
  started: boolean;
  /** The branch `.last-branch` named before, when it named one. */
  previousBranch?: string;
  /** The archive folder, when the previous run's files were archived. */
  archived?: string;
}

/**
 * ralph.sh's bookkeeping before an agent runs, checked on every iteration. When
 * `.last-branch` names another branch, the previous run's prd.json and progress.txt are
 * copied to `archive/<date>-<feature>/` and progress.txt starts afresh; `.last-branch` then
 * names this run's branch, and progress.txt exists. Once `.last-branch` names the run's
 * branch (the runner commits it on that branch), later iterations change nothing.
 */
export async function prepareRunnerFiles(
  files: RunnerFiles,
  branch: string,
  options: {
    now: Date;
    /**
     * What the previous run left on its branch (previous-run-files.ts), archived instead of
     * the files in the working tree, which may already be the next feature's.
     */
    previousRun?: (branch: string) => Promise<PreviousRunFiles>;
  },
): Promise<PreparedRunnerFiles> {
  await checkRunnerDirectories(files);
  const lastBranch = (await readOptional(files.lastBranch))?.trim() ?? '';
  let archived: string | undefined;
  if (lastBranch !== '' && lastBranch !== branch) {
    archived = await freeArchiveFolder(
      files.archiveDir,
      `${options.now.toISOString().slice(0, 10)}-${branchFeatureName(lastBranch).replace(/\//g, '-')}`,
    );
    await mkdir(archived, { recursive: true });
    const left = (await options.previousRun?.(lastBranch)) ?? {};
    await archiveFile(left.prd, files.prd, join(archived, 'prd.json'));
    await archiveFile(left.progress, files.progress, join(archived, 'progress.txt'));
    await writeNoFollow(files.progress, newProgressLog(options.now));
  }
  const started = lastBranch !== branch;
  if (started) await writeNoFollow(files.lastBranch, `${branch}\n`);
  if (!(await occupied(files.progress)))
    await writeNoFollow(files.progress, newProgressLog(options.now));
  return {
    started,
    ...(lastBranch === '' ? {} : { previousBranch: lastBranch }),
    ...(archived === undefined ? {} : { archived }),
  };
}

/** prd.json and progress.txt as a previous run left them; undefined: not known. */
export interface PreviousRunFiles {
  prd?: string;
  progress?: string;
}

/** Writes `content` (what the previous run left) to `to`, else copies the working tree's. */
async function archiveFile(content: string | undefined, from: string, to: string): Promise<void> {
  if (content !== undefined) await writeNoFollow(to, content);
  else if (await exists(from)) await copyNoFollow(from, to);
}

/** `archive/<name>`, or `<name>-2`, `-3`... when an earlier archive took the name today. */
async function freeArchiveFolder(archiveDir: string, name: string): Promise<string> {
  let candidate = join(archiveDir, name);
  for (let n = 2; await exists(candidate); n += 1) candidate = join(archiveDir, `${name}-${n}`);
  return candidate;
}

/** prd.json and progress.txt as the runner prepared them, before the agent ran. */
export interface RunnerSnapshot {
  prd: string;
  progress: string;
}

/** Puts prd.json and progress.txt back as they were, whatever the agent did to them. */
export async function restoreRunnerFiles(
  files: RunnerFiles,
  snapshot: RunnerSnapshot,
): Promise<void> {
  await mkdir(dirname(files.prd), { recursive: true });
  await checkRunnerDirectories(files);
  await writeNoFollow(files.prd, snapshot.prd);
  await writeNoFollow(files.progress, snapshot.progress);
}
