/**
 * What a previous run actually left on its branch, for the archive a new run makes. The
 * working tree is no witness: the user commits the next feature's prd.json on the old
 * branch (or edits it in place), and a new run branch starts from the default branch with
 * that branch's files. The previous run's last word is the newest commit on its branch
 * whose prd.json still names that branch.
 */
import { isAbsolute, relative, sep } from 'node:path';
import { git, gitBytes, GitError, type Repo } from '../git/command.js';
import type { PreviousRunFiles, RunnerFiles } from './runner-files.js';

/** How far back the branch's history is searched for the previous run's prd.json. */
const COMMITS_SEARCHED = 50;

/** prd.json and progress.txt as the run on `branch` left them; `{}` when not found. */
export async function previousRunFiles(
  repo: Repo,
  files: RunnerFiles,
  branch: string,
): Promise<PreviousRunFiles> {
  const prdPath = inRepository(files, files.prd);
  const progressPath = inRepository(files, files.progress);
  if (prdPath === undefined) return {};
  for (const ref of [`refs/heads/${branch}`, `refs/remotes/origin/${branch}`]) {
    const commits = await history(repo, ref, [prdPath, progressPath ?? prdPath]);
    if (commits === undefined) continue;
    for (const sha of commits) {
      const prd = await fileAt(repo, sha, prdPath);
      if (prd === undefined || namedBranch(prd) !== branch) continue;
      const progress =
        progressPath === undefined ? undefined : await fileAt(repo, sha, progressPath);
      return { prd, ...(progress === undefined ? {} : { progress }) };
    }
    return {};
  }
  return {};
}

/** The repository-relative `/` path of a file inside the repository, else undefined. */
function inRepository(files: RunnerFiles, path: string): string | undefined {
  const inside = relative(files.root, path);
  return inside === '' || inside.startsWith('..') || isAbsolute(inside)
    ? undefined
    : inside.split(sep).join('/');
}

/** The newest commits on `ref` that touched `paths`; undefined when `ref` does not exist. */
async function history(
  repo: Repo,
  ref: string,
  paths: readonly string[],
): Promise<string[] | undefined> {
  try {
    const out = await git(repo, [
      'log',
      '--format=%H',
      `-n${COMMITS_SEARCHED}`,
      ref,
      '--',
      ...new Set(paths),
    ]);
    return out === '' ? [] : out.split('\n');
  } catch (error) {
    if (error instanceof GitError) return undefined;
    throw error;
  }
}

async function fileAt(repo: Repo, sha: string, path: string): Promise<string | undefined> {
  try {
    return (await gitBytes(repo, ['show', `${sha}:${path}`])).toString('utf8');
  } catch (error) {
    if (error instanceof GitError) return undefined;
    throw error;
  }
}

function namedBranch(prdText: string): unknown {
  try {
    return (JSON.parse(prdText) as { branchName?: unknown }).branchName;
  } catch {
    return undefined;
  }
}
