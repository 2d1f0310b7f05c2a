/**
 * The working copy one iteration runs in: found (local path) or cloned (git URL), checked
 * for a clean tree, and put on the run's branch.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { IterationOutcome } from '../../lambdas/core/schemas/outcome.js';
import type { RunRecord } from '../../lambdas/core/schemas/run.js';
import { createBranch, defaultBranch, switchBranch } from '../git/branches.js';
import type { Repo } from '../git/command.js';
import { listRefs, type Refs } from '../git/refs.js';
import { clone } from '../git/remote.js';
import { isRepository, status, type RepositoryStatus, type StatusEntry } from '../git/status.js';
import { exists, readOptional } from './optional-files.js';
import { isRunnerPath, runnerFiles, type RunnerFiles } from './runner-files.js';
import type { Spawner } from '../process/spawner.js';

/** A usable working copy; its git processes go through `spawner`. */
export interface Workspace extends Repo {
  files: RunnerFiles;
  /**
   * The branches (origin's included) and the one checked out, as found when the workspace
   * was opened: what `checkoutRunBranch` decides from.
   */
  refs: Refs;
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
  spawner: Spawner;
  /** Where git-URL repositories are cloned. */
  workspaceRoot: string;
  gitToken?: string;
  /** Names the clone directory. */
  iteration: number;
}

const DIRTY_PATHS_SHOWN = 5;

/** What is uncommitted in the working tree besides the runner's own files. */
export function uncommittedChanges(
  files: RunnerFiles,
  entries: readonly StatusEntry[],
): StatusEntry[] {
  return entries.filter((entry) => !isRunnerPath(files, entry.path));
}

/** The first few of `shown`, joined, then how many more there are. */
export function firstFew(shown: readonly string[]): string {
  const more =
    shown.length > DIRTY_PATHS_SHOWN ? ` and ${shown.length - DIRTY_PATHS_SHOWN} more` : '';
  return `${shown.slice(0, DIRTY_PATHS_SHOWN).join(', ')}${more}`;
}

/**
 * Finds or clones the working copy and checks it is usable; a problem comes back as the
 * iteration's outcome rather than an error.
 */
export async function openWorkspace(
  run: RunRecord,
  options: OpenWorkspaceOptions,
): Promise<Workspace | WorkspaceProblem> {
  const { spawner } = options;
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
      inspect({ dir, spawner }, run.prdPath, { topOnly: true }),
    ]);
    if (plain && !('error' in quick)) inspected = quick;
    else {
      if (!(await isRepository({ dir, spawner })))
        return {
          outcome: 'workspace_missing',
          cause: `${dir} is not the top of a git working tree`,
        };
      // Failed only for a work tree whose git dir lies above it (or one git cannot read).
      inspected = 'error' in quick ? await inspect({ dir, spawner }, run.prdPath) : quick;
    }
  } else {
    await mkdir(options.workspaceRoot, { recursive: true });
    cloneRoot = await mkdtemp(join(options.workspaceRoot, `${run.runId}-${options.iteration}-`));
    dir = join(cloneRoot, 'repo');
    try {
      await clone(spawner, run.repo.url, dir, options.gitToken);
    } catch (error) {
      await rm(cloneRoot, { recursive: true, force: true });
      return { outcome: 'workspace_missing', cause: `clone failed: ${(error as Error).message}` };
    }
    inspected = await inspect({ dir, spawner }, run.prdPath);
  }
  const root = cloneRoot;
  const dispose = async () => {
    if (root) await rm(root, { recursive: true, force: true });
  };

  if ('error' in inspected) {
    await dispose();
    throw inspected.error;
  }
  // An investigate run works on a project's own repository: it has no prd.json to read.
  const problem = checkWorkingTree(dir, inspected, { needsPrd: run.investigation === undefined });
  if (problem) {
    await dispose();
    return problem;
  }
  const { files, refs } = inspected;
  return { dir, spawner, files, refs, cloned: root !== undefined, dispose };
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
  status: RepositoryStatus;
  refs: Refs;
  prdExists: boolean;
}

/** Everything checkWorkingTree needs, read side by side; never rejects. */
async function inspect(
  repo: Repo,
  prdPath: string,
  options: { topOnly?: boolean } = {},
): Promise<Inspection | { error: unknown }> {
  const files = runnerFiles(repo.dir, prdPath);
  try {
    const [found, refs, prdExists] = await Promise.all([
      status(repo, options),
      listRefs(repo, { ...options, remotes: true }),
      exists(files.prd),
    ]);
    return { files, status: found, refs, prdExists };
  } catch (error) {
    return { error };
  }
}

function checkWorkingTree(
  dir: string,
  inspected: Inspection,
  options: { needsPrd: boolean },
): WorkspaceProblem | undefined {
  const { files, status } = inspected;
  if (status.head === undefined)
    return { outcome: 'workspace_missing', cause: `repository ${dir} has no commits` };
  const dirty = uncommittedChanges(files, status.entries);
  if (dirty.length > 0)
    return {
      outcome: 'workspace_dirty',
      cause: `uncommitted changes in ${dir}: ${firstFew(dirty.map((entry) => `${entry.code.trim()} ${entry.path}`))}`,
    };
  if (options.needsPrd && !inspected.prdExists)
    return { outcome: 'workspace_missing', cause: `prd file ${files.prd} does not exist` };
  return undefined;
}

/** How checkoutRunBranch moved HEAD: not at all, to an existing branch, or to a new one. */
export type BranchMove = 'kept' | 'switched' | 'created';

/**
 * Puts the working copy on `branch`: the local branch, else the remote one, else a new
 * branch from the default branch. Decides from `refs` (the branches as they are now; read
 * when not given) and runs git only to check out; nothing when `branch` is checked out.
 */
export async function checkoutRunBranch(
  repo: Repo,
  branch: string,
  refs?: Refs,
): Promise<BranchMove> {
  const known = refs ?? (await listRefs(repo, { remotes: true }));
  const local = (name: string) => known.heads.has(`refs/heads/${name}`);
  const remote = (name: string) => known.remotes.has(`refs/remotes/origin/${name}`);
  if (local(branch)) {
    if (known.current === `refs/heads/${branch}`) return 'kept';
    await switchBranch(repo, branch);
    return 'switched';
  }
  if (remote(branch)) {
    await createBranch(repo, branch, `origin/${branch}`);
    return 'switched';
  }
  const base = await defaultBranch(repo);
  const from =
    base === undefined || local(base) ? base : remote(base) ? `origin/${base}` : undefined;
  await createBranch(repo, branch, from);
  return 'created';
}
