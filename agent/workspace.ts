/**
 * The working copy one iteration runs in: found (local path) or cloned (git URL), checked
 * for a clean tree, put on the run's branch, with Ralph's own files beside prd.json
 * (progress.txt, `.last-branch`, `archive/`) prepared the way ralph.sh prepares them.
 */
import { access, copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { branchFeatureName } from '../lambdas/core/prd.js';
import { newProgressLog } from '../lambdas/core/progress-log.js';
import type { IterationOutcome, RunRecord } from '../lambdas/core/schemas/records.js';
import * as git from './git.js';

/** Ralph's files beside prd.json: the runner owns them, the agent must not change them. */
export interface RunnerFiles {
  prd: string;
  progress: string;
  lastBranch: string;
  archiveDir: string;
  /**
   * The same paths relative to the repository root (`/`-separated; the archive as a
   * directory with a trailing `/`), for those inside the repository.
   */
  inRepo: string[];
}

export interface Workspace {
  dir: string;
  files: RunnerFiles;
  /** Cloned from a git URL: pushed after a counted commit, removed afterwards. */
  cloned: boolean;
  /** Removes a clone; a local working copy stays. */
  dispose(): Promise<void>;
}

export interface WorkspaceProblem {
  outcome: Extract<IterationOutcome, 'workspace_missing' | 'workspace_dirty'>;
  cause: string;
}

export interface OpenWorkspaceOptions {
  /** Where git-URL repositories are cloned. */
  workspaceRoot: string;
  gitToken?: string;
  /** Names the clone directory. */
  iteration: number;
}

const DIRTY_PATHS_SHOWN = 5;

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
  return { ...files, inRepo };
}

/** Whether a repository-relative path is one of the runner's files. */
export function isRunnerPath(files: RunnerFiles, path: string): boolean {
  return files.inRepo.some((owned) =>
    owned.endsWith('/') ? path.startsWith(owned) : path === owned,
  );
}

/**
 * Finds or clones the working copy and checks it is usable; a problem comes back as the
 * iteration's outcome rather than an error.
 */
export async function openWorkspace(
  run: RunRecord,
  options: OpenWorkspaceOptions,
): Promise<Workspace | WorkspaceProblem> {
  let dir: string;
  let cloneRoot: string | undefined;
  if (run.repo.kind === 'local') {
    dir = resolve(run.repo.path);
    if (!(await exists(dir)))
      return { outcome: 'workspace_missing', cause: `repository path ${dir} does not exist` };
    if (!(await git.isRepository(dir)))
      return {
        outcome: 'workspace_missing',
        cause: `${dir} is not the top of a git working tree`,
      };
  } else {
    await mkdir(options.workspaceRoot, { recursive: true });
    cloneRoot = await mkdtemp(join(options.workspaceRoot, `${run.runId}-${options.iteration}-`));
    dir = join(cloneRoot, 'repo');
    try {
      await git.clone(run.repo.url, dir, options.gitToken);
    } catch (error) {
      await rm(cloneRoot, { recursive: true, force: true });
      return { outcome: 'workspace_missing', cause: `clone failed: ${(error as Error).message}` };
    }
  }
  const root = cloneRoot;
  const dispose = async () => {
    if (root) await rm(root, { recursive: true, force: true });
  };

  const problem = await checkWorkingTree(dir, runnerFiles(dir, run.prdPath));
  if (problem) {
    await dispose();
    return problem;
  }
  return { dir, files: runnerFiles(dir, run.prdPath), cloned: root !== undefined, dispose };
}

async function checkWorkingTree(
  dir: string,
  files: RunnerFiles,
): Promise<WorkspaceProblem | undefined> {
  if ((await git.currentHead(dir)) === undefined)
    return { outcome: 'workspace_missing', cause: `repository ${dir} has no commits` };
  const dirty = (await git.statusPorcelain(dir)).filter(
    (entry) => !isRunnerPath(files, entry.path),
  );
  if (dirty.length > 0) {
    const shown = dirty
      .slice(0, DIRTY_PATHS_SHOWN)
      .map((entry) => `${entry.code.trim()} ${entry.path}`);
    const more = dirty.length > shown.length ? ` and ${dirty.length - shown.length} more` : '';
    return {
      outcome: 'workspace_dirty',
      cause: `uncommitted changes in ${dir}: ${shown.join(', ')}${more}`,
    };
  }
  if (!(await exists(files.prd)))
    return { outcome: 'workspace_missing', cause: `prd file ${files.prd} does not exist` };
  return undefined;
}

/**
 * Puts the working copy on `branch`: the local branch, else the remote one, else a new
 * branch from the default branch.
 */
export async function checkoutRunBranch(dir: string, branch: string): Promise<void> {
  if (await git.branchExists(dir, branch)) return git.checkoutBranch(dir, branch);
  if (await git.remoteBranchExists(dir, branch))
    return git.checkoutBranch(dir, branch, `origin/${branch}`);
  const base = await git.defaultBranch(dir);
  const from =
    base === undefined || (await git.branchExists(dir, base))
      ? base
      : (await git.remoteBranchExists(dir, base))
        ? `origin/${base}`
        : undefined;
  return git.checkoutBranch(dir, branch, from);
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
 * commits them on the run branch.
 *
 * @returns the paths written back.
 */
export async function restoreMissingRunnerFiles(
  files: RunnerFiles,
  before: RunnerFileContents,
): Promise<string[]> {
  const written: string[] = [];
  for (const [path, content] of [
    [files.prd, before.prd],
    [files.progress, before.progress],
    [files.lastBranch, before.lastBranch],
  ] as const) {
    if (content === undefined || (await exists(path))) continue;
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content);
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
  options: { now: Date },
): Promise<PreparedRunnerFiles> {
  const lastBranch = (await readOptional(files.lastBranch))?.trim() ?? '';
  let archived: string | undefined;
  if (lastBranch !== '' && lastBranch !== branch) {
    archived = await freeArchiveFolder(
      files.archiveDir,
      `${options.now.toISOString().slice(0, 10)}-${branchFeatureName(lastBranch).replace(/\//g, '-')}`,
    );
    await mkdir(archived, { recursive: true });
    if (await exists(files.prd)) await copyFile(files.prd, join(archived, 'prd.json'));
    if (await exists(files.progress))
      await copyFile(files.progress, join(archived, 'progress.txt'));
    await writeFile(files.progress, newProgressLog(options.now));
  }
  const started = lastBranch !== branch;
  if (started) await writeFile(files.lastBranch, `${branch}\n`);
  if (!(await exists(files.progress))) await writeFile(files.progress, newProgressLog(options.now));
  return {
    started,
    ...(lastBranch === '' ? {} : { previousBranch: lastBranch }),
    ...(archived === undefined ? {} : { archived }),
  };
}

/** `archive/<name>`, or `<name>-2`, `-3`... when an earlier archive took the name today. */
async function freeArchiveFolder(archiveDir: string, name: string): Promise<string> {
  let candidate = join(archiveDir, name);
  for (let n = 2; await exists(candidate); n += 1) candidate = join(archiveDir, `${name}-${n}`);
  return candidate;
}

export interface RunnerSnapshot {
  prd: string;
  progress: string;
}

export async function snapshotRunnerFiles(files: RunnerFiles): Promise<RunnerSnapshot> {
  return {
    prd: await readFile(files.prd, 'utf8'),
    progress: await readFile(files.progress, 'utf8'),
  };
}

/** Puts prd.json and progress.txt back as they were, whatever the agent did to them. */
export async function restoreRunnerFiles(
  files: RunnerFiles,
  snapshot: RunnerSnapshot,
): Promise<void> {
  await mkdir(dirname(files.prd), { recursive: true });
  await writeFile(files.prd, snapshot.prd);
  await writeFile(files.progress, snapshot.progress);
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
