/**
 * The working copy one iteration runs in: found (local path) or cloned (git URL), checked
 * for a clean tree, put on the run's branch, with Ralph's own files beside prd.json
 * (progress.txt, `.last-branch`, `archive/`) prepared the way ralph.sh prepares them.
 */
import { access, copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { branchFeatureName } from '../lambdas/core/ralph/prd.js';
import { newProgressLog } from '../lambdas/core/ralph/progress-log.js';
import type { RunRecord } from '../lambdas/core/schemas/run.js';
import type { IterationOutcome } from '../lambdas/core/schemas/outcome.js';
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
  /**
   * The branches (origin's included) and the one checked out, as found when the workspace
   * was opened: what `checkoutRunBranch` decides from.
   */
  refs: git.Refs;
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
  let inspected: Inspection | { error: unknown };
  if (run.repo.kind === 'local') {
    dir = resolve(run.repo.path);
    if (!(await exists(dir)))
      return { outcome: 'workspace_missing', cause: `repository path ${dir} does not exist` };
    // Git looks for the repository no higher than `dir`: for a plain repository, the
    // inspection succeeding says that `dir` is the top of its working tree, without a git
    // process to ask.
    const [plain, quick] = await Promise.all([
      isPlainRepository(dir),
      inspect(dir, run.prdPath, { topOnly: true }),
    ]);
    if (plain && !('error' in quick)) inspected = quick;
    else {
      if (!(await git.isRepository(dir)))
        return {
          outcome: 'workspace_missing',
          cause: `${dir} is not the top of a git working tree`,
        };
      // Failed only for a work tree whose git dir lies above it (or one git cannot read).
      inspected = 'error' in quick ? await inspect(dir, run.prdPath) : quick;
    }
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
    inspected = await inspect(dir, run.prdPath);
  }
  const root = cloneRoot;
  const dispose = async () => {
    if (root) await rm(root, { recursive: true, force: true });
  };

  if ('error' in inspected) {
    await dispose();
    throw inspected.error;
  }
  const problem = checkWorkingTree(dir, inspected);
  if (problem) {
    await dispose();
    return problem;
  }
  const { files, refs } = inspected;
  return { dir, files, refs, cloned: root !== undefined, dispose };
}

/**
 * Whether `dir/.git` is a repository directory whose config cannot name a work tree
 * elsewhere (no `worktree` or `include` in it), with no repository or work tree named by
 * the environment: then git finding it from `dir`, and no higher, means `dir` is the top
 * of its working tree. False when unsure.
 */
async function isPlainRepository(dir: string): Promise<boolean> {
  if (process.env.GIT_DIR !== undefined || process.env.GIT_WORK_TREE !== undefined) return false;
  const config = await readOptional(join(dir, '.git', 'config'));
  return config !== undefined && !/worktree|include/i.test(config);
}

interface Inspection {
  files: RunnerFiles;
  status: git.RepositoryStatus;
  refs: git.Refs;
  prdExists: boolean;
}

/** Everything checkWorkingTree needs, read side by side; never rejects. */
async function inspect(
  dir: string,
  prdPath: string,
  options: { topOnly?: boolean } = {},
): Promise<Inspection | { error: unknown }> {
  const files = runnerFiles(dir, prdPath);
  try {
    const [status, refs, prdExists] = await Promise.all([
      git.status(dir, options),
      git.listRefs(dir, { ...options, remotes: true }),
      exists(files.prd),
    ]);
    return { files, status, refs, prdExists };
  } catch (error) {
    return { error };
  }
}

function checkWorkingTree(dir: string, inspected: Inspection): WorkspaceProblem | undefined {
  const { files, status } = inspected;
  if (status.head === undefined)
    return { outcome: 'workspace_missing', cause: `repository ${dir} has no commits` };
  const dirty = status.entries.filter((entry) => !isRunnerPath(files, entry.path));
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
  if (!inspected.prdExists)
    return { outcome: 'workspace_missing', cause: `prd file ${files.prd} does not exist` };
  return undefined;
}

/**
 * Puts the working copy on `branch`: the local branch, else the remote one, else a new
 * branch from the default branch. Decides from `refs` (the branches as they are now; read
 * when not given) and runs git only to check out; nothing when `branch` is checked out.
 *
 * @returns whether HEAD moved (a branch was checked out or created).
 */
export async function checkoutRunBranch(
  dir: string,
  branch: string,
  refs?: git.Refs,
): Promise<boolean> {
  const known = refs ?? (await git.listRefs(dir, { remotes: true }));
  const local = (name: string) => known.heads.has(`refs/heads/${name}`);
  const remote = (name: string) => known.remotes.has(`refs/remotes/origin/${name}`);
  if (local(branch)) {
    if (known.current === `refs/heads/${branch}`) return false;
    await git.switchBranch(dir, branch);
    return true;
  }
  if (remote(branch)) {
    await git.createBranch(dir, branch, `origin/${branch}`);
    return true;
  }
  const base = await git.defaultBranch(dir);
  const from =
    base === undefined || local(base) ? base : remote(base) ? `origin/${base}` : undefined;
  await git.createBranch(dir, branch, from);
  return true;
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
