/**
 * Gates passed: the story passes, progress is logged, and one commit counts. Everything
 * the result needs (files changed, the diff) is done before the commit, so that
 * result.json can be written right after it: if the commit is on the branch, result.json
 * says `passed`.
 */
import { serializePrd, withStoryPassed } from '../../lambdas/core/ralph/prd.js';
import { addCodebasePatterns, appendProgressEntry } from '../../lambdas/core/ralph/progress-log.js';
import type { AgentReport } from '../../lambdas/core/prompts/iteration-prompt.js';
import { commit } from '../git/commits.js';
import { stagedChange } from '../git/diff.js';
import { push } from '../git/remote.js';
import { addAll } from '../git/staging.js';
import type { GateRun } from '../checks/gates.js';
import type { StagedChange } from './after-agent.js';
import type { Written } from './artefacts.js';
import { keepUnpushed } from './evidence.js';
import { runRemote, type Iteration } from './iteration.js';
import { parsePrd } from './prd-file.js';
import { archiveOldProgress } from './progress-archive.js';
import type { Session } from './prepare.js';
import { writeNoFollow } from '../working-copy/optional-files.js';
import { checkRunnerDirectories } from '../working-copy/runner-files.js';

export interface CountedChange {
  message: string;
  /** What the commit changes outside the runner's files, and its patch. */
  filesChanged: string[];
  patch: Uint8Array;
  progressArchive: Written;
}

/** Marks the story, logs progress (archiving old entries) and stages the whole change. */
export async function stageCountedChange(
  it: Iteration,
  session: Session,
  report: AgentReport,
  change: StagedChange,
  gateRuns: GateRun[],
): Promise<CountedChange> {
  const { workspace, plan, snapshot, base } = session;
  const { files } = workspace;
  const prd = parsePrd(snapshot.prd, files.prd);
  // A decomposed story passes with its last subtask; the others are commits of their own.
  const storyDone = !plan.subtask || plan.subtask.last;
  const done = plan.subtask ?? plan.story;
  const progress = appendProgressEntry(snapshot.progress, {
    at: it.deps.clock.now(),
    storyId: done.id,
    summary: report.summary ?? `Implemented ${done.id}: ${done.title}`,
    filesChanged: change.files,
    learnings: report.learnings,
  });
  const logged = await archiveOldProgress(
    it,
    addCodebasePatterns(progress, report.codebasePatterns),
  );
  // `passes: true` means the story met its blocking gates, as Ralph defines it, review
  // findings or not: the task record (in review, then complete) decides when the run is done.
  await checkRunnerDirectories(files);
  await Promise.all([
    writeNoFollow(
      files.prd,
      storyDone ? serializePrd(withStoryPassed(prd, plan.story.id)) : snapshot.prd,
    ),
    writeNoFollow(files.progress, logged.text),
  ]);
  await addAll(workspace);
  // The index is the commit's tree: base..index is what base..commit will be. Outside the
  // runner's files it changed since `change` was taken only if gates ran. The patch is
  // the change outside the runner's files, as a failed iteration's is (keepEvidence).
  const { files: filesChanged, patch } =
    gateRuns.length > 0
      ? await stagedChange(workspace, base, files.inRepo, { binary: true })
      : change;
  const message = `feat: ${done.id} - ${done.title}`;
  session.transcript.note(`runner: passed: committing "${message}"`);
  return { message, filesChanged, patch, progressArchive: logged.written };
}

/** Makes the counted commit; from here the working copy holds no change of the agent's. */
export function commitCounted(session: Session, message: string): Promise<string> {
  // Empty only when the prd lives outside the repository and the agent committed
  // everything itself; the runner's commit still marks the iteration that counted.
  return commit(session.workspace, message, { allowEmpty: true, shaLength: session.base.length });
}

/**
 * Pushes the counted commit of a clone. A refused push leaves the commit off the remote
 * branch, so it does not count: it is kept as evidence on the remote, if it can be (the
 * clone is about to vanish). Never rejects.
 */
export async function pushCounted(
  it: Iteration,
  session: Session,
  sha: string,
): Promise<{ refused: false } | { refused: true; error: unknown; evidenceRef?: string }> {
  if (!session.workspace.cloned) return { refused: false };
  try {
    await push(session.workspace, runRemote(it), it.run.branchName);
    return { refused: false };
  } catch (error) {
    const evidenceRef = await keepUnpushed(it, session.workspace, sha);
    return { refused: true, error, ...(evidenceRef === undefined ? {} : { evidenceRef }) };
  }
}
