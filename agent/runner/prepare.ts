/**
 * The third stage: the working copy is put on the run branch (with loop control's
 * checkpoints), Ralph's own files are prepared, and the prompt is rendered from plan.json
 * and progress.txt. The prompt is stored while the agent starts.
 */
import { readFile } from 'node:fs/promises';
import { NotFoundError } from '../../lambdas/core/errors.js';
import { buildIterationPrompt } from '../../lambdas/core/prompts/iteration-prompt.js';
import { renderLearning } from '../../lambdas/core/learning/render-learning.js';
import type { IterationLearning } from '../../lambdas/core/schemas/learning.js';
import { trackedFiles } from '../git/files.js';
import type { IterationPlan } from '../../lambdas/core/schemas/plan.js';
import { git } from '../git/command.js';
import { commit } from '../git/commits.js';
import { listRefs, type Refs } from '../git/refs.js';
import { push } from '../git/remote.js';
import { addPaths, hasStagedChanges } from '../git/staging.js';
import {
  prepareRunnerFiles,
  readRunnerFiles,
  restoreMissingRunnerFiles,
  type RunnerSnapshot,
} from '../working-copy/runner-files.js';
import { Transcript } from './transcript.js';
import { checkoutRunBranch, type Workspace } from '../working-copy/workspace.js';
import { previousRunFiles } from '../working-copy/previous-run-files.js';
import { putArtefact, type Written } from './artefacts.js';
import { applyCheckpoints } from './checkpoints.js';
import { runRemote, type Iteration } from './iteration.js';
import type { OpenedWorkspace } from './open.js';
import { parsePrd } from './prd-file.js';
import { settle, unwrap } from './settled.js';

/** The working copy as the agent gets it, and what a reset goes back to. */
export interface Session {
  workspace: Workspace;
  plan: IterationPlan;
  prompt: string;
  /** HEAD before the agent ran: what a reset goes back to. */
  base: string;
  /** Every local branch's head before the agent ran (`refs/heads/...` to sha). */
  branches: Map<string, string>;
  snapshot: RunnerSnapshot;
  transcript: Transcript;
  /** What the prompt carried of what was learned (absent when the plan carried nothing). */
  learning?: IterationLearning;
  /** prompt.md's write, made while the agent starts; settled before any verdict. */
  promptWritten: Promise<PromiseSettledResult<Written>>;
}

/** Branch, Ralph's bookkeeping files, prompt: everything before the agent. */
export async function prepareWorkingCopy(it: Iteration, opened: OpenedWorkspace): Promise<Session> {
  const { workspace, plan } = opened;
  const { refs, tagging } = await putOnRunBranch(it, opened);
  const { files } = workspace;
  const [prdText, progressText] = await Promise.all([
    readFile(files.prd, 'utf8'),
    readFile(files.progress, 'utf8'),
  ]);
  const prd = parsePrd(prdText, files.prd);
  if (!prd.userStories.some((story) => story.id === plan.story.id))
    throw new NotFoundError(`story ${plan.story.id} is not in ${files.prd}`);
  const learned = plan.learning
    ? renderLearning(plan.learning, {
        repositoryFiles: await trackedFiles(workspace),
        maxRules: it.run.config.learning.maxRules,
        templates: it.deps.templates,
      })
    : undefined;
  const prompt = buildIterationPrompt({
    plan,
    prd,
    progressText,
    gates: it.run.config.gates,
    branchName: it.run.branchName,
    templates: it.deps.templates,
    ...(learned?.text ? { learningSections: learned.text } : {}),
  });
  const runRef = `refs/heads/${it.run.branchName}`;
  // HEAD is on the run branch now.
  const base =
    (refs.current === runRef ? refs.heads.get(runRef) : undefined) ??
    (await git(workspace, ['rev-parse', 'HEAD']));
  const promptWritten = settle(putArtefact(it, 'prompt.md', prompt));
  // The tags are written while the prompt is stored; they exist before the agent runs.
  if (tagging) unwrap(await tagging);
  return {
    workspace,
    plan,
    prompt,
    base,
    branches: refs.heads,
    snapshot: { prd: prdText, progress: progressText },
    transcript: new Transcript(),
    ...(learned ? { learning: learned.learning } : {}),
    promptWritten,
  };
}

/**
 * Checks the run branch out, applies the checkpoints, and prepares (and commits) the
 * runner's files. Returns the branches as they are now, and the new tags' write when it is
 * still going on.
 */
async function putOnRunBranch(
  it: Iteration,
  opened: OpenedWorkspace,
): Promise<{ refs: Refs; tagging?: Promise<PromiseSettledResult<boolean>> }> {
  const { workspace, plan } = opened;
  const { files } = workspace;
  // Read before the checkout, which may remove them (prd.json committed only on `dev`).
  const before = await readRunnerFiles(files);
  const moved = await checkoutRunBranch(workspace, it.run.branchName, workspace.refs);
  // A reset moves the branch before anything is read; new tags only need to exist before
  // the agent starts, so they are written while the runner reads its files.
  const resetTo = plan.checkpoints?.resetTo;
  const reset = resetTo ? await applyCheckpoints(it, workspace, plan) : false;
  const tagging = resetTo
    ? undefined
    : (opened.tagged ?? settle(applyCheckpoints(it, workspace, plan)));
  const restored = await restoreMissingRunnerFiles(files, before, {
    branchCreated: moved === 'created',
  });
  if (restored.length > 0) it.log('runner-files-restored', { files: restored });
  const prepared = await prepareRunnerFiles(files, it.run.branchName, {
    now: it.deps.clock.now(),
    previousRun: (branch) => previousRunFiles(workspace, files, branch),
  });
  if (prepared.archived) it.log('archived', { folder: prepared.archived });
  const committed =
    prepared.started &&
    (await commitRunnerFiles(it, workspace, startMessage(it.run.branchName, prepared)));
  // The branches as the workspace was opened, unless the runner has moved one since.
  const refs = moved !== 'kept' || committed || reset ? await listRefs(workspace) : workspace.refs;
  return { refs, ...(tagging ? { tagging } : {}) };
}

function startMessage(
  branch: string,
  prepared: { archived?: string; previousBranch?: string },
): string {
  return prepared.archived !== undefined && prepared.previousBranch !== undefined
    ? `chore(ralph): archive ${prepared.previousBranch} and start ${branch}`
    : `chore(ralph): start ${branch}`;
}

/**
 * Commits the bookkeeping of a run's start on the run branch (`.last-branch`, the archive
 * of the previous run, the fresh progress.txt, a prd.json the checkout had removed), and
 * pushes it for a clone, before any agent runs: a failed iteration must not lose it, or
 * the next one would archive again (or never). Returns whether it committed.
 */
async function commitRunnerFiles(
  it: Iteration,
  workspace: Workspace,
  message: string,
): Promise<boolean> {
  await addPaths(workspace, workspace.files.inRepo);
  if (!(await hasStagedChanges(workspace))) return false;
  const sha = await commit(workspace, message);
  if (workspace.cloned) await push(workspace, runRemote(it), it.run.branchName);
  it.log('runner-commit', { commit: sha, message });
  return true;
}
