/**
 * The iteration runner: what runs inside the agent container (and, locally, in-process)
 * for ONE iteration. It claims the iteration, prepares the working copy, runs the agent
 * with the rendered prompt, runs the quality gates itself, and either makes the one
 * counted commit or keeps the change as evidence and resets. It reports through
 * `result.json`; record-iteration, not the runner, moves the iteration to its final state.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { artefactKeys, type IterationArtefact } from '../lambdas/core/artefact-keys.js';
import { NotFoundError } from '../lambdas/core/errors.js';
import { serializePrd, withStoryPassed } from '../lambdas/core/prd.js';
import {
  addCodebasePatterns,
  appendProgressEntry,
  archiveProgress,
  progressArchiveReason,
} from '../lambdas/core/progress-log.js';
import {
  buildIterationPrompt,
  parseAgentReport,
  RECENT_ENTRY_COUNT,
  type AgentReport,
} from '../lambdas/core/prompt.js';
import { CLAUDE_CODE_COMMAND } from '../lambdas/core/schemas/config.js';
import {
  IterationPlanSchema,
  IterationResultSchema,
  type IterationPlan,
  type IterationResult,
} from '../lambdas/core/schemas/iteration-io.js';
import { PrdSchema, type Prd } from '../lambdas/core/schemas/prd.js';
import type {
  GateResult,
  IterationOutcome,
  IterationRecord,
  RunRecord,
} from '../lambdas/core/schemas/records.js';
import { parseJsonText, parseOrThrow } from '../lambdas/core/validation.js';
import type { ArtefactStore, Clock, RunStore } from '../lambdas/ports.js';
import { classifyAgentExit, joinDetail, outputTail, type Verdict } from './agent-outcome.js';
import { CancelWatch } from './cancel-watch.js';
import { observeIteration, type RunnerObservation } from '../lambdas/core/control/observation.js';
import { changedFiles } from '../lambdas/core/control/quality/changed-files.js';
import {
  assessQuality,
  type QualityAssessment,
  type ReviewFinding,
} from '../lambdas/core/control/quality/enforce.js';
import { runEvaluationSuite, type SuiteRun } from './evaluation-suite.js';
import { blockingGatesPassed, describeGateFailures, runGates, type GateRun } from './gates.js';
import * as git from './git/index.js';
import { runCommand, type CommandResult } from './process.js';
import { Transcript } from './transcript.js';
import {
  prepareRunnerFiles,
  readRunnerFiles,
  restoreMissingRunnerFiles,
  restoreRunnerFiles,
  type PreparedRunnerFiles,
  type RunnerSnapshot,
} from './runner-files.js';
import type { Spawner } from './spawner.js';
import { checkoutRunBranch, openWorkspace, type Workspace } from './workspace.js';

export interface RunnerEvent {
  event: string;
  runId: string;
  iteration: number;
  [field: string]: unknown;
}

export interface RunnerDeps {
  runs: RunStore;
  artefacts: ArtefactStore;
  clock: Clock;
  /**
   * Starts git, the agent, the gates and the evaluation suite: plain child processes in the
   * container (agent/child-process-spawner.ts), the spawn server locally.
   */
  spawner: Spawner;
  /** Where git-URL repositories are cloned. Default: the OS temp dir. */
  workspaceRoot?: string;
  /** Sent to the git remote for clone and push; never given to the agent or the gates. */
  gitToken?: string;
  /** How often the run is checked for a cancel request while the agent and gates run. */
  cancelPollMs?: number;
  /** Between SIGTERM and SIGKILL when the agent or a gate is stopped. */
  killGraceMs?: number;
  /**
   * Aborted when this process must stop (the container got SIGTERM): the agent and gates
   * are stopped, the change kept as evidence, and the result is `interrupted`.
   */
  signal?: AbortSignal;
  log?: (event: RunnerEvent) => void;
}

export interface RunIterationInput {
  runId: string;
  iteration: number;
}

/**
 * Runs one iteration and returns what it wrote to `result.json`. Throws
 * IterationClaimedError when the iteration is not `planned` (a duplicate delivery must not
 * run the agent twice); after the claim, an unexpected error is still reported as a
 * `runner_error` result before it is rethrown.
 *
 * @example
 * const result = await runIteration({ runs, artefacts, clock: systemClock }, { runId, iteration: 3 });
 * console.log(result.outcome, result.commit ?? result.evidenceRef);
 */
export async function runIteration(
  deps: RunnerDeps,
  input: RunIterationInput,
): Promise<IterationResult> {
  // plan.json's key is known from the input: it is read while the records are read and
  // the iteration is claimed (a claim that fails leaves the read unused).
  const planKey = artefactKeys.iteration(input.runId, input.iteration, 'plan.json');
  const planText = deps.artefacts.getText(planKey);
  planText.catch(() => undefined);
  // The claim does not need the record read first (RunStore.claimIteration), so it is
  // made while the run is read.
  const claiming = deps.runs.claimIteration(
    input.runId,
    input.iteration,
    deps.clock.now().toISOString(),
  );
  claiming.catch(() => undefined);
  const run = await deps.runs.getRun(input.runId);
  if (!run) {
    await claiming.catch(() => undefined);
    throw new NotFoundError(`run ${input.runId} does not exist`);
  }
  // A local working copy is inspected (read only) while the claim completes; a clone
  // waits for the claim, so none is made for an iteration another runner holds.
  const opening =
    run.repo.kind === 'local'
      ? openWorkspace(run, workspaceOptions(deps, input.iteration))
      : undefined;
  opening?.catch(() => undefined);
  let record: IterationRecord;
  try {
    record = await claiming;
  } catch (error) {
    // A local working copy needs no disposing; its git processes are let finish.
    await opening?.catch(() => undefined);
    throw error;
  }
  const iteration = new IterationRun(deps, run, record, { key: planKey, text: planText }, opening);
  try {
    return await iteration.execute();
  } catch (error) {
    const reported = await iteration.reportRunnerError(error);
    // The counted commit is on the branch and result.json says so: the error came after.
    if (reported?.outcome === 'passed') return reported;
    throw error;
  }
}

function workspaceOptions(deps: RunnerDeps, iteration: number) {
  return {
    spawner: deps.spawner,
    workspaceRoot: deps.workspaceRoot ?? tmpdir(),
    iteration,
    ...(deps.gitToken === undefined ? {} : { gitToken: deps.gitToken }),
  };
}

/** The working state from the moment the agent may touch the working copy. */
interface Session {
  workspace: Workspace;
  plan: IterationPlan;
  prompt: string;
  /** HEAD before the agent ran: what a reset goes back to. */
  base: string;
  /** Every local branch's head before the agent ran (`refs/heads/...` to sha). */
  branches: Map<string, string>;
  snapshot: RunnerSnapshot;
  transcript: Transcript;
  cancel: CancelWatch;
  /** prompt.md's write, made while the agent starts; settled before any verdict. */
  promptWritten: Promise<void>;
}

/** One claimed iteration, from plan to result.json. */
class IterationRun {
  private readonly started = performance.now();
  private readonly startedAt: string;
  private readonly written: Record<string, string> = {};
  private agentMs = 0;
  private gatesMs = 0;
  private gates: GateResult[] = [];
  private agentExitCode: number | null | undefined;
  private report: AgentReport = { learnings: [], codebasePatterns: [], claimedComplete: false };
  private filesChanged: string[] = [];
  /** Ids of the evaluation suite's documents that were uploaded. */
  private documents: string[] = [];
  private observation: RunnerObservation | undefined;
  /** Quality enforcement's review findings on gates that passed: result.json's `review`. */
  private findings: ReviewFinding[] = [];
  /** The subtask of a decomposed story the plan names. */
  private subtaskId: string | undefined;
  /** Set while the working copy may hold an uncommitted change: what an error must undo. */
  private dirtySession: Session | undefined;
  /**
   * The counted commit, once it is on the branch (pushed, for a clone). From then on
   * result.json must say `passed`, whatever else fails.
   */
  private committed: string | undefined;
  /** The evidence ref (pushed) of a counted commit that could not be pushed. */
  private unpushedEvidence: string | undefined;
  private result: IterationResult | undefined;

  constructor(
    private readonly deps: RunnerDeps,
    private readonly run: RunRecord,
    private readonly record: IterationRecord,
    /** plan.json, being read since before the claim. */
    private readonly planFile: { key: string; text: Promise<string> },
    /** The working copy, when it is being opened since before the claim. */
    private readonly opening?: ReturnType<typeof openWorkspace>,
  ) {
    this.startedAt = record.startedAt ?? deps.clock.now().toISOString();
  }

  async execute(): Promise<IterationResult> {
    this.log('claimed', { taskId: this.record.taskId });
    // plan.json is read while the working copy is found and checked.
    const planning = this.readPlan();
    const tagging = this.tagLocalCopyEarly(planning);
    const [planned, opening] = await Promise.allSettled([
      planning,
      this.opening ?? openWorkspace(this.run, workspaceOptions(this.deps, this.record.iteration)),
    ]);
    // A working copy that cannot be used says why in its outcome; so do the tags' failure.
    const tagged = tagging?.catch((error: unknown) => {
      if (opening.status === 'fulfilled' && 'dir' in opening.value) throw error;
    });
    tagged?.catch(() => undefined);
    if (planned.status === 'rejected') {
      await tagged?.catch(() => undefined);
      if (opening.status === 'fulfilled' && 'dir' in opening.value) await opening.value.dispose();
      throw planned.reason;
    }
    if (opening.status === 'rejected') {
      await tagged;
      throw opening.reason;
    }
    const plan = planned.value;
    const opened = opening.value;
    if (!('dir' in opened)) {
      await tagged;
      return this.finish(opened);
    }
    try {
      return await this.inWorkspace(opened, plan, tagged);
    } finally {
      await opened.dispose();
    }
  }

  /**
   * Loop control's new tags (no reset) need only the plan and the directory, so a local
   * working copy gets them while it is inspected: they are refs of their own, apart from
   * what `git status` and the branch listing read. A clone's directory exists only once
   * it is cloned, and a reset moves the branch, which waits for the inspection.
   */
  private tagLocalCopyEarly(planning: Promise<IterationPlan>): Promise<void> | undefined {
    const { repo } = this.run;
    if (repo.kind !== 'local') return undefined;
    const tagging = planning.then(async (plan) => {
      if (plan.checkpoints && !plan.checkpoints.resetTo)
        await this.applyCheckpoints(
          { dir: resolve(repo.path), spawner: this.deps.spawner, cloned: false },
          plan,
        );
    });
    tagging.catch(() => undefined);
    return tagging;
  }

  /** Steps 4 to 6: branch, Ralph's bookkeeping files, prompt; then the agent. */
  private async inWorkspace(
    workspace: Workspace,
    plan: IterationPlan,
    /** The new tags, when written while the working copy was inspected. */
    taggedEarly: Promise<void> | undefined,
  ): Promise<IterationResult> {
    const { dir, files } = workspace;
    const runRef = `refs/heads/${this.run.branchName}`;
    // Read before the checkout, which may remove them (prd.json committed only on `dev`).
    const before = await readRunnerFiles(files);
    const switched = await checkoutRunBranch(workspace, this.run.branchName, workspace.refs);
    // A reset moves the branch before anything is read; new tags only need to exist before
    // the agent starts, so they are written while the runner reads its files.
    const reset = plan.checkpoints?.resetTo ? await this.applyCheckpoints(workspace, plan) : false;
    const tagging = plan.checkpoints?.resetTo
      ? undefined
      : (taggedEarly ?? this.applyCheckpoints(workspace, plan));
    tagging?.catch(() => undefined);
    const restored = await restoreMissingRunnerFiles(files, before);
    if (restored.length > 0) this.log('runner-files-restored', { files: restored });
    const prepared = await prepareRunnerFiles(files, this.run.branchName, {
      now: this.deps.clock.now(),
    });
    if (prepared.archived) this.log('archived', { folder: prepared.archived });
    const committed = prepared.started && (await this.commitRunnerFiles(workspace, prepared));
    // The branches as the workspace was opened, unless the runner has moved one since.
    const refs = switched || committed || reset ? await git.listRefs(this.at(dir)) : workspace.refs;

    const [prdText, progressText] = await Promise.all([
      readFile(files.prd, 'utf8'),
      readFile(files.progress, 'utf8'),
    ]);
    const prd = parsePrd(prdText, files.prd);
    if (!prd.userStories.some((story) => story.id === plan.story.id))
      throw new NotFoundError(`story ${plan.story.id} is not in ${files.prd}`);
    const prompt = buildIterationPrompt({
      plan,
      prd,
      progressText,
      gates: this.run.config.gates,
      branchName: this.run.branchName,
    });

    const session: Session = {
      workspace,
      plan,
      prompt,
      // HEAD is on the run branch now.
      base:
        (refs.current === runRef ? refs.heads.get(runRef) : undefined) ??
        (await git.git(this.at(dir), ['rev-parse', 'HEAD'])),
      branches: refs.heads,
      snapshot: { prd: prdText, progress: progressText },
      transcript: new Transcript(),
      // The run as read for the claim says whether it is cancelled already; from here on
      // it is polled.
      cancel: new CancelWatch(this.deps.runs, this.run.runId, {
        requested: this.run.cancelRequested,
        ...(this.deps.cancelPollMs === undefined ? {} : { pollMs: this.deps.cancelPollMs }),
        ...(this.deps.signal === undefined ? {} : { signal: this.deps.signal }),
      }),
      promptWritten: this.put('prompt.md', prompt),
    };
    // Awaited below; a failed write must not surface as an unhandled rejection meanwhile.
    session.promptWritten.catch(() => undefined);
    try {
      // The tags are written while the prompt is stored; they exist before the agent runs.
      await tagging;
      if (session.cancel.signal.aborted) {
        await session.promptWritten;
        return await this.stopEarly(session, undefined, 'before the agent started');
      }
      return await this.agentAndGates(session);
    } finally {
      await session.cancel.stop();
    }
  }

  /** Steps 7 to 9: the agent, the gates, and the verdict. */
  private async agentAndGates(session: Session): Promise<IterationResult> {
    const { workspace, base, transcript, cancel } = session;
    const { dir, files } = workspace;

    this.dirtySession = session;
    const agent = await this.runAgent(session);
    this.report = parseAgentReport(agent.stdout);
    // The change is staged and read while the branches are checked and the runner's files
    // restored (staging leaves those out); a failure below stages it again (keepEvidence),
    // so staging first changes nothing for it. The prompt, written while the agent ran, is stored
    // before anything is decided: every iteration keeps what it was told (a failed write is
    // a runner error, after the agent has ended).
    const [agentBranches, staging, stored] = await Promise.all([
      this.branchProblems(session, 'the agent'),
      // Against HEAD when the agent did not commit, the staged change is the agent's whole
      // change; its patch is kept for a pass without gates, when nothing can change it since.
      git
        .addAll(this.at(dir), files.inRepo)
        .then(() => git.stagedChange(this.at(dir), base, files.inRepo, { binary: true }))
        .then(
          (change) => ({ failed: false as const, change }),
          (error: unknown) => ({ failed: true as const, error }),
        ),
      session.promptWritten
        .then(() => restoreRunnerFiles(files, session.snapshot))
        .then(
          () => ({ failed: false as const }),
          (error: unknown) => ({ failed: true as const, error }),
        ),
    ]);
    if (stored.failed) throw stored.error;
    const strayed = agentBranches.problems;
    if (agent.aborted) return this.stopEarly(session, undefined, 'while the agent ran');
    const agentFailure = classifyAgentExit(
      agent,
      this.agentCommand(),
      this.run.config.agent.timeoutSeconds,
    );
    if (agentFailure)
      return this.fail(session, undefined, {
        ...agentFailure,
        ...(strayed ? { cause: `${agentFailure.cause ?? ''}; ${strayed}` } : {}),
      });
    if (strayed)
      return this.fail(session, undefined, {
        outcome: 'agent_failed',
        cause: strayed,
        failureDetail: joinDetail(strayed, [['agent stdout', outputTail(agent.stdout)]]),
      });
    if (staging.failed) throw staging.error;

    // No problem: HEAD is on the run branch, at its head.
    const head = agentBranches.runHead ?? (await git.git(this.at(dir), ['rev-parse', 'HEAD']));
    const { change } = staging;
    const changed = change.files;
    if (head === base && changed.length === 0) {
      this.dirtySession = undefined;
      const cause = 'the agent exited 0 without changing anything';
      transcript.note(`runner: no_changes: ${cause}`);
      await this.putChangeArtefacts(session, '', undefined);
      await this.evaluationSuite(session);
      return this.finish({
        outcome: 'no_changes',
        cause,
        failureDetail: joinDetail(cause, [['agent stdout', outputTail(agent.stdout)]]),
      });
    }

    const gatesStarted = performance.now();
    const gateRuns = await runGates(this.run.config.gates, dir, {
      spawner: this.deps.spawner,
      signal: cancel.signal,
      ...(this.deps.killGraceMs === undefined ? {} : { killGraceMs: this.deps.killGraceMs }),
    });
    this.gatesMs = performance.now() - gatesStarted;
    // The quality settings judge what the gates printed and the change itself; the patch
    // taken before the gates is the agent's change (no second git process for numstat).
    const quality = assessQuality(
      {
        gates: gateRuns.map((gateRun) => ({ ...gateRun.result, output: gateRun.output })),
        files: changedFiles(new TextDecoder().decode(change.patch)),
      },
      this.run.config.control.quality,
    );
    // gates.json and the observation record the gates as judged.
    const judged = gateRuns.map((gateRun, index) => ({
      ...gateRun,
      result: quality.gates[index] ?? gateRun.result,
    }));
    this.gates = quality.gates;
    this.log('gates', {
      gates: this.gates.map(({ name, passed }) => ({ name, passed })),
      ...(quality.overruled.length > 0 ? { overruled: quality.overruled } : {}),
      ...(quality.findings.length > 0 ? { findings: quality.findings.length } : {}),
    });
    // The gates run the agent's code, which may touch the branches too (when none ran,
    // nothing did since the check above).
    const gatesStrayed =
      gateRuns.length > 0
        ? (await this.branchProblems(session, 'the gates', head)).problems
        : undefined;

    if (cancel.signal.aborted) return this.stopEarly(session, judged, 'while the gates ran');
    if (!blockingGatesPassed(this.gates) || gatesStrayed) {
      const failed = this.gates
        .filter((gate) => gate.blocking && !gate.passed)
        .map((gate) => gate.name);
      const causes = [
        ...(failed.length > 0
          ? [
              `blocking gate${failed.length > 1 ? 's' : ''} failed: ${failed
                .map((name) => withQualityReason(name, quality))
                .join(', ')}`,
            ]
          : []),
        ...(gatesStrayed ? [gatesStrayed] : []),
      ];
      return this.fail(session, judged, {
        outcome: 'gates_failed',
        cause: causes.join('; '),
        failureDetail: [describeGateFailures(this.gates), gatesStrayed ?? '']
          .filter((part) => part !== '')
          .join('\n\n'),
      });
    }
    this.findings = quality.findings;
    return this.pass(session, change, judged);
  }

  /**
   * What the agent (or the gates) did to the branches that it must not: HEAD left off the
   * run branch, the run branch deleted or moved so that it no longer holds `base` (or, with
   * `runBranchAt`, moved at all), another branch moved or deleted. New branches and tags
   * may stay. `problems` is undefined when none; the failure path restores them all
   * (keepEvidence). `runHead` is where the run branch is now.
   */
  private async branchProblems(
    session: Session,
    who: string,
    runBranchAt?: string,
  ): Promise<{ problems?: string; runHead?: string }> {
    const dir = session.workspace.dir;
    const runRef = `refs/heads/${this.run.branchName}`;
    const { heads, current } = await git.listRefs(this.at(dir));
    const problems: string[] = [];
    // Without a current branch, HEAD is detached or names a branch that does not exist.
    const headRef = current ?? (await git.headRef(this.at(dir)));
    if (headRef === undefined) problems.push('left HEAD detached');
    else if (headRef !== runRef) problems.push(`left branch ${branchName(headRef)} checked out`);
    const runHead = heads.get(runRef);
    if (runHead === undefined) problems.push(`deleted branch ${this.run.branchName}`);
    else if (runBranchAt !== undefined && runHead !== runBranchAt)
      problems.push(`moved branch ${this.run.branchName}`);
    else if (
      runHead !== session.base &&
      !(await git.isAncestor(this.at(dir), session.base, runHead))
    )
      problems.push(
        `rewrote branch ${this.run.branchName} (${session.base.slice(0, 12)} is no longer in its history)`,
      );
    for (const [ref, sha] of session.branches) {
      if (ref === runRef) continue;
      const now = heads.get(ref);
      if (now === undefined) problems.push(`deleted branch ${branchName(ref)}`);
      else if (now !== sha) problems.push(`moved branch ${branchName(ref)}`);
    }
    if (problems.length === 0) return runHead === undefined ? {} : { runHead };
    const description = `${who} ${problems.join(', ')}; restored`;
    session.transcript.note(`runner: ${description}`);
    this.log('branches-restored', { by: who, problems });
    return { problems: description, ...(runHead === undefined ? {} : { runHead }) };
  }

  private agentCommand(): string {
    return this.run.config.agent.command ?? CLAUDE_CODE_COMMAND;
  }

  private async runAgent(session: Session): Promise<CommandResult> {
    const { workspace, plan, transcript } = session;
    const config = this.run.config.agent;
    this.log('agent-started', { command: this.agentCommand() });
    // runCommand leaves the runner's credentials (AWS_*, ECS_*, GIT_TOKEN, TABLE_NAME,
    // BUCKET_NAME) out of the agent's environment (agent/environment.ts); what the run's
    // config sets is passed. In the container the agent should also run as a separate uid
    // (not done here): the same uid can read this process's /proc/<pid>/environ.
    const result = await runCommand({
      spawner: this.deps.spawner,
      command: this.agentCommand(),
      cwd: workspace.dir,
      stdin: session.prompt,
      env: {
        ...config.env,
        // For scripted agents, which would rather not parse the prompt.
        RALPH_RUN_ID: this.run.runId,
        RALPH_ITERATION: String(this.record.iteration),
        RALPH_STORY_ID: plan.story.id,
        ...(plan.subtask ? { RALPH_SUBTASK_ID: plan.subtask.id } : {}),
        RALPH_PRD_PATH: workspace.files.prd,
        RALPH_PROGRESS_PATH: workspace.files.progress,
      },
      timeoutMs: config.timeoutSeconds * 1000,
      signal: session.cancel.signal,
      onOutput: (stream, text) => transcript.push(stream, text),
      ...(this.deps.killGraceMs === undefined ? {} : { killGraceMs: this.deps.killGraceMs }),
    });
    transcript.end();
    this.agentMs = result.durationMs;
    this.agentExitCode = result.exitCode;
    this.log('agent-ended', {
      exitCode: result.exitCode,
      signal: result.signal,
      timedOut: result.timedOut,
      aborted: result.aborted,
      ms: Math.round(result.durationMs),
    });
    return result;
  }

  /**
   * Gates passed: the story passes, progress is logged, and one commit counts. Everything
   * the result needs (files changed, the diff) is done before the commit, and the other
   * artefacts are written while it is made, so that result.json is written right after it:
   * if the commit is on the branch, result.json says `passed` (reportRunnerError keeps to
   * that as well).
   */
  private async pass(
    session: Session,
    change: { files: string[]; patch: Uint8Array },
    gateRuns: GateRun[],
  ): Promise<IterationResult> {
    const changed = change.files;
    const { workspace, plan, snapshot, base, transcript } = session;
    const { dir, files } = workspace;
    const prd = parsePrd(snapshot.prd, files.prd);
    // A decomposed story passes with its last subtask; the others are commits of their own.
    const storyDone = !plan.subtask || plan.subtask.last;
    const done = plan.subtask ?? plan.story;
    const progress = appendProgressEntry(snapshot.progress, {
      at: this.deps.clock.now(),
      storyId: done.id,
      summary: this.report.summary ?? `Implemented ${done.id}: ${done.title}`,
      filesChanged: changed,
      learnings: this.report.learnings,
    });
    const logged = await this.archiveProgress(
      addCodebasePatterns(progress, this.report.codebasePatterns),
    );
    // `passes: true` means the story met its blocking gates, as Ralph defines it, review
    // findings or not: the task record (in review, then complete) decides when the run is done.
    await Promise.all([
      writeFile(
        files.prd,
        storyDone ? serializePrd(withStoryPassed(prd, plan.story.id)) : snapshot.prd,
      ),
      writeFile(files.progress, logged),
    ]);

    await git.addAll(this.at(dir));
    // The index is the commit's tree: base..index is what base..commit will be. Outside the
    // runner's files it changed since `change` was taken only if gates ran. The patch is
    // the change outside the runner's files, as a failed iteration's is (keepEvidence).
    const { files: filesChanged, patch } =
      gateRuns.length > 0
        ? await git.stagedChange(this.at(dir), base, files.inRepo, { binary: true })
        : change;
    this.filesChanged = filesChanged;
    const message = `feat: ${done.id} - ${done.title}`;
    transcript.note(`runner: passed: committing "${message}"`);
    // Best effort and never rejected; settled before anything reports (result.json lists
    // what was written), whether the commit is made or fails.
    const artefactsWritten = this.putChangeArtefacts(session, patch, gateRuns);

    let commit: string;
    try {
      // Empty only when the prd lives outside the repository and the agent committed
      // everything itself; the runner's commit still marks the iteration that counted.
      commit = await git.commit(this.at(dir), message, {
        allowEmpty: true,
        shaLength: base.length,
      });
      this.dirtySession = undefined;
      if (workspace.cloned) {
        try {
          await git.push(this.at(dir), this.run.branchName, this.deps.gitToken);
        } catch (error) {
          // Not on the remote branch, so it does not count; the clone is about to vanish.
          this.unpushedEvidence = await this.keepUnpushed(dir, commit);
          throw error;
        }
      }
    } finally {
      await artefactsWritten;
    }
    this.committed = commit;
    this.log('committed', { commit });
    await this.evaluationSuite(session);
    return this.finish({ outcome: 'passed', commit });
  }

  /**
   * After the counted commit, in the committed working copy (or, when the iteration did
   * not count, on the restored code): the evaluation suite's documents become the
   * iteration's evaluation artefacts, and suite.json says how the suite
   * went. Evidence, never a gate: nothing here changes the outcome, and a document whose
   * upload failed is logged and left out of `documents`. The suite runs the project's code
   * the way the gates do, so its time is counted with theirs in `gatesMs` (not runner
   * overhead, not the agent's); suite.json keeps its own duration. It runs before
   * result.json is written (which lists the documents), so the gap between the commit and
   * result.json grows by the suite's run: bounded by its timeout, and cut short by a cancel
   * or a SIGTERM (the iteration still reports `passed`).
   */
  private async evaluationSuite(session: Session): Promise<void> {
    const { enabled, suite } = this.run.config.evaluation;
    if (!enabled || !suite) return;
    const started = performance.now();
    let run: SuiteRun;
    try {
      run = await runEvaluationSuite({
        dir: session.workspace.dir,
        spawner: this.deps.spawner,
        suite,
        signal: session.cancel.signal,
        ...(this.deps.killGraceMs === undefined ? {} : { killGraceMs: this.deps.killGraceMs }),
      });
    } catch (error) {
      const message = (error as Error).message;
      run = {
        status: 'failed',
        documents: [],
        problems: [`the suite could not be run: ${message}`],
        exitCode: null,
        durationMs: performance.now() - started,
        outputTail: '',
      };
    } finally {
      this.gatesMs += performance.now() - started;
    }
    const uploaded = await Promise.all(
      run.documents.map(async (document) => {
        const key = artefactKeys.evaluationArtefact(
          this.run.runId,
          this.record.iteration,
          document.id,
        );
        try {
          await this.deps.artefacts.put(key, asBytes(JSON.stringify(document)));
          return { id: document.id };
        } catch (error) {
          const message = (error as Error).message;
          this.log('artefact-write-failed', { artefact: key, error: message });
          return { id: document.id, problem: `${document.id}: upload failed: ${message}` };
        }
      }),
    );
    this.documents = uploaded.filter((upload) => !upload.problem).map(({ id }) => id);
    const problems = [
      ...run.problems,
      ...uploaded.flatMap(({ problem }) => (problem ? [problem] : [])),
    ];
    const report = {
      command: suite.command,
      outputDir: suite.outputDir,
      documentType: suite.documentType,
      status: run.status,
      exitCode: run.exitCode,
      durationMs: Math.round(run.durationMs),
      documents: this.documents,
      problems,
      outputTail: run.outputTail,
    };
    const key = await this.putBestEffort('suite.json', `${JSON.stringify(report, null, 2)}\n`);
    if (key !== undefined) this.noteWritten('suite.json', key);
    this.log('evaluation-suite', {
      status: run.status,
      documents: this.documents.length,
      problems: problems.length,
    });
  }

  /**
   * Commits the bookkeeping of a run's start on the run branch (`.last-branch`, the archive
   * of the previous run, the fresh progress.txt, a prd.json the checkout had removed), and
   * pushes it for a clone, before any agent runs: a failed iteration must not lose it, or
   * the next one would archive again (or never). Returns whether it committed.
   */
  private async commitRunnerFiles(
    workspace: Workspace,
    prepared: PreparedRunnerFiles,
  ): Promise<boolean> {
    const { dir, files } = workspace;
    const branch = this.run.branchName;
    await git.addPaths(this.at(dir), files.inRepo);
    if (!(await git.hasStagedChanges(this.at(dir)))) return false;
    const message =
      prepared.archived !== undefined && prepared.previousBranch !== undefined
        ? `chore(ralph): archive ${prepared.previousBranch} and start ${branch}`
        : `chore(ralph): start ${branch}`;
    const commit = await git.commit(this.at(dir), message);
    if (workspace.cloned) await git.push(this.at(dir), branch, this.deps.gitToken);
    this.log('runner-commit', { commit, message });
    return true;
  }

  /** The run was cancelled, or this process told to stop. */
  private stopEarly(
    session: Session,
    gateRuns: GateRun[] | undefined,
    when: string,
  ): Promise<IterationResult> {
    const verdict: Verdict =
      session.cancel.reason === 'interrupted'
        ? { outcome: 'interrupted', cause: `the runner was told to stop ${when}` }
        : { outcome: 'cancelled', cause: `the run was cancelled ${when}` };
    return this.fail(session, gateRuns, verdict);
  }

  /** The change does not count: keep it as evidence, reset, report. */
  private async fail(
    session: Session,
    gateRuns: GateRun[] | undefined,
    verdict: Verdict,
  ): Promise<IterationResult> {
    session.transcript.note(`runner: ${verdict.outcome}: ${verdict.cause ?? ''}`);
    const { evidence, moved } = await this.keepEvidence(session, verdict.outcome);
    const patch =
      evidence === undefined
        ? ''
        : await git.diff(session.workspace, session.base, evidence.sha, { binary: true });
    await this.putChangeArtefacts(session, patch, gateRuns);
    // On the restored code: every iteration scores the same documents, so the evaluation's
    // figures stay comparable across a failed attempt.
    await this.evaluationSuite(session);
    const keptMoved =
      moved.length > 0 ? `the moved branches' heads are kept as ${moved.join(', ')}` : '';
    return this.finish({
      ...verdict,
      ...(keptMoved
        ? {
            failureDetail: [verdict.failureDetail ?? verdict.cause ?? '', keptMoved]
              .filter((part) => part !== '')
              .join('\n'),
          }
        : {}),
      ...(evidence ? { evidenceRef: evidence.ref } : {}),
    });
  }

  /**
   * Commits whatever the agent changed under `refs/ralph/evidence/<run>/<n>` (no branch
   * moves), then puts every local branch back where it was before the agent ran (a moved
   * head that the evidence does not hold is kept as `refs/ralph/moved/<run>/<n>/<branch>`),
   * checks the run branch out again at `base`, and puts the runner's files back to their
   * snapshot. Ignored files (node_modules) and the runner's untracked files survive.
   */
  private async keepEvidence(
    session: Session,
    outcome: IterationOutcome,
  ): Promise<{ evidence?: { ref: string; sha: string }; moved: string[] }> {
    const { workspace, base, snapshot, plan } = session;
    const { dir, files } = workspace;
    await restoreRunnerFiles(files, snapshot);
    await git.addAll(this.at(dir), files.inRepo);
    // Undefined when the agent deleted the branch HEAD names.
    const head = await git.currentHead(this.at(dir));
    let evidence: { ref: string; sha: string } | undefined;
    if (head !== base || (await git.hasStagedChanges(this.at(dir), files.inRepo))) {
      const sha = await git.commitDetached(
        this.at(dir),
        `evidence: ${plan.story.id} - ${plan.story.title} (iteration ${this.record.iteration}, ${outcome})`,
        head ?? base,
      );
      const ref = `refs/ralph/evidence/${this.run.runId}/${this.record.iteration}`;
      await git.updateRef(this.at(dir), ref, sha);
      evidence = { ref, sha };
      this.filesChanged = await git.filesChanged(this.at(dir), base, sha, files.inRepo);
      session.transcript.note(`runner: change kept as ${ref} (${sha})`);
    }
    const moved = await this.restoreBranches(session, evidence?.sha);
    await git.quitPendingOperations(this.at(dir));
    await git.setHeadRef(this.at(dir), `refs/heads/${this.run.branchName}`);
    await git.resetHard(this.at(dir), base);
    await git.clean(this.at(dir), files.inRepo);
    await restoreRunnerFiles(files, snapshot);
    this.dirtySession = undefined;
    if (evidence) this.log('evidence', evidence);
    if (workspace.cloned)
      for (const ref of [...(evidence ? [evidence.ref] : []), ...moved])
        await this.pushEvidence(dir, ref);
    return { ...(evidence ? { evidence } : {}), moved };
  }

  /**
   * Puts every branch recorded before the agent ran back at its recorded head (the run
   * branch at `base`); a branch the agent created stays. Returns the side refs that keep
   * moved heads the evidence commit does not already hold.
   */
  private async restoreBranches(session: Session, evidence: string | undefined): Promise<string[]> {
    const dir = session.workspace.dir;
    const heads = await git.branchHeads(this.at(dir));
    const moved: string[] = [];
    for (const [ref, sha] of session.branches) {
      const now = heads.get(ref);
      if (now === sha) continue;
      if (now !== undefined && !(evidence && (await git.isAncestor(this.at(dir), now, evidence)))) {
        const side = `refs/ralph/moved/${this.run.runId}/${this.record.iteration}/${branchName(ref)}`;
        await git.updateRef(this.at(dir), side, now);
        moved.push(side);
        session.transcript.note(`runner: ${branchName(ref)} was at ${now}; kept as ${side}`);
      }
      await git.updateRef(this.at(dir), ref, sha);
    }
    return moved;
  }

  /** Best effort: the clone is about to vanish, and the ref with it. */
  private async pushEvidence(dir: string, ref: string): Promise<boolean> {
    try {
      await git.push(this.at(dir), ref, this.deps.gitToken);
      return true;
    } catch (error) {
      this.log('evidence-push-failed', { error: (error as Error).message });
      return false;
    }
  }

  /** Keeps a commit the run branch's push refused as evidence on the remote, if it can. */
  private async keepUnpushed(dir: string, commit: string): Promise<string | undefined> {
    const ref = `refs/ralph/evidence/${this.run.runId}/${this.record.iteration}`;
    try {
      await git.updateRef(this.at(dir), ref, commit);
    } catch (error) {
      this.log('evidence-failed', { error: (error as Error).message });
      return undefined;
    }
    return (await this.pushEvidence(dir, ref)) ? ref : undefined;
  }

  /**
   * transcript.jsonl, diff.patch and (when the gates ran) gates.json with full outputs,
   * written side by side; no gates.json for a run without gates. Best effort: a write that
   * fails is logged and left out of the result's artefacts; it never changes the outcome.
   */
  /**
   * Every `archive.everyIterations` iterations, and whenever progress.txt has grown past
   * `archive.maxProgressBytes`, the progress entries the prompt no longer shows move to S3
   * (`progress-archive/{n}.txt`); the Codebase Patterns section and the recent entries
   * stay. Only trimmed once the archive is stored: nothing is lost.
   */
  private async archiveProgress(text: string): Promise<string> {
    const reason = progressArchiveReason(
      { iteration: this.record.iteration, bytes: Buffer.byteLength(text) },
      this.run.config.control.archive,
    );
    if (!reason) return text;
    const { kept, archived, moved } = archiveProgress(text, RECENT_ENTRY_COUNT);
    if (moved === 0) return text;
    const key = artefactKeys.progressArchive(this.run.runId, this.record.iteration);
    try {
      await this.deps.artefacts.put(key, archived, 'text/plain');
    } catch (error) {
      this.log('progress-archive-failed', { error: (error as Error).message });
      return text;
    }
    this.written['progress-archive'] = key;
    this.log('progress-archived', { entries: moved, key, reason });
    return kept;
  }

  /**
   * Loop control's checkpoints (design §3.7): the tags record-iteration decided on, and a
   * reset of the run branch to a checkpoint (a rollback, or the supervisor's RESET). The
   * commits a reset leaves behind are kept at `refs/ralph/reset/<run>/<n>`. Returns whether
   * the branch moved.
   */
  private async applyCheckpoints(
    workspace: Pick<Workspace, 'dir' | 'spawner' | 'cloned'>,
    plan: IterationPlan,
  ): Promise<boolean> {
    const work = plan.checkpoints;
    if (!work) return false;
    const { dir } = workspace;
    const target = work.resetTo;
    const head = target ? await git.currentHead(this.at(dir)) : undefined;
    const moves = target !== undefined && head !== undefined && head !== target.commit;
    const kept = `refs/ralph/reset/${this.run.runId}/${this.record.iteration}`;
    await git.updateRefs(this.at(dir), {
      update: [
        ...work.create.map(({ tag, commit }) => ({ ref: `refs/tags/${tag}`, sha: commit })),
        ...(moves && head ? [{ ref: kept, sha: head }] : []),
      ],
      delete: work.drop.map((tag) => `refs/tags/${tag}`),
    });
    if (!moves || !target) return false;
    await git.resetHard(this.at(dir), target.commit);
    this.log('reset-to-checkpoint', { tag: target.tag, reason: target.reason, kept });
    if (workspace.cloned) {
      // The remote branch goes back too (the next clone starts from the checkpoint), and
      // the commits left behind stay reachable there. Checkpoint tags stay in the clone:
      // the reset needs only the commit, which the remote has.
      await git.push(this.at(dir), kept, this.deps.gitToken);
      await git.forcePushHead(this.at(dir), this.run.branchName, this.deps.gitToken);
    }
    return true;
  }

  /** What the loop's decisions read of this iteration; evidence, so a failure only logs. */
  private observe(
    session: Session,
    patch: string | Uint8Array,
    gateRuns: GateRun[] | undefined,
    transcript: string,
  ): void {
    try {
      this.observation = observeIteration({
        patch: typeof patch === 'string' ? patch : new TextDecoder().decode(patch),
        gates: (gateRuns ?? []).map(({ result, command, output }) => ({
          name: result.name,
          command,
          passed: result.passed,
          timedOut: result.timedOut,
          output,
        })),
        transcript,
        cwd: session.workspace.dir,
      });
    } catch (error) {
      this.log('observation-failed', { error: (error as Error).message });
    }
  }

  private async putChangeArtefacts(
    session: Session,
    patch: string | Uint8Array,
    gateRuns: GateRun[] | undefined,
  ): Promise<void> {
    const transcript = session.transcript.toJsonl();
    this.observe(session, patch, gateRuns, transcript);
    const artefacts: [IterationArtefact, string | Uint8Array][] = [
      ['transcript.jsonl', transcript],
      ['diff.patch', patch],
    ];
    if (gateRuns && this.run.config.gates.length > 0) {
      const gates = gateRuns.map(({ result, command, output }) => ({
        name: result.name,
        command,
        blocking: result.blocking,
        passed: result.passed,
        exitCode: result.exitCode,
        timedOut: result.timedOut,
        durationMs: result.durationMs,
        output,
      }));
      artefacts.push(['gates.json', `${JSON.stringify({ gates }, null, 2)}\n`]);
    }
    const written = await Promise.all(
      artefacts.map(([name, body]) => this.putBestEffort(name, body)),
    );
    // Recorded in a fixed order, whichever write finished first.
    artefacts.forEach(([name], index) => {
      const key = written[index];
      if (key !== undefined) this.noteWritten(name, key);
    });
  }

  private async readPlan(): Promise<IterationPlan> {
    const { key } = this.planFile;
    const text = await this.planFile.text;
    const plan = parseOrThrow(IterationPlanSchema, parseJsonText(text, key), key);
    this.written.plan = key;
    this.subtaskId = plan.subtask?.id;
    return plan;
  }

  private async put(name: IterationArtefact, body: string | Uint8Array): Promise<void> {
    this.noteWritten(name, await this.write(name, body));
  }

  /** Writes an artefact; returns its key, or undefined (logged) when the write failed. */
  private async putBestEffort(
    name: IterationArtefact,
    body: string | Uint8Array,
  ): Promise<string | undefined> {
    try {
      return await this.write(name, body);
    } catch (error) {
      this.log('artefact-write-failed', { artefact: name, error: (error as Error).message });
      return undefined;
    }
  }

  private async write(name: IterationArtefact, body: string | Uint8Array): Promise<string> {
    const key = artefactKeys.iteration(this.run.runId, this.record.iteration, name);
    await this.deps.artefacts.put(key, asBytes(body));
    return key;
  }

  /** Lists a written artefact in the result. */
  private noteWritten(name: IterationArtefact, key: string): void {
    this.written[name.replace(/\..*$/, '')] = key;
  }

  /** Writes result.json, last of the iteration's artefacts. */
  private async finish(verdict: Verdict): Promise<IterationResult> {
    const total = performance.now() - this.started;
    const resultKey = artefactKeys.iteration(this.run.runId, this.record.iteration, 'result.json');
    const result = IterationResultSchema.parse({
      runId: this.run.runId,
      iteration: this.record.iteration,
      taskId: this.record.taskId,
      subtaskId: this.subtaskId,
      outcome: verdict.outcome,
      // Findings travel only with a pass: a failed iteration's gates say what to fix.
      review:
        verdict.outcome === 'passed' && this.findings.length > 0
          ? { findings: this.findings }
          : undefined,
      cause: verdict.cause,
      failureDetail:
        verdict.failureDetail ?? (verdict.outcome === 'passed' ? '' : (verdict.cause ?? '')),
      gates: this.gates,
      commit: verdict.commit,
      evidenceRef: verdict.evidenceRef,
      agentExitCode: this.agentExitCode,
      agentClaimedComplete: this.report.claimedComplete,
      filesChanged: this.filesChanged,
      documents: this.documents,
      observation: this.observation,
      durations: {
        agentMs: Math.round(this.agentMs),
        gatesMs: Math.round(this.gatesMs),
        runnerMs: Math.max(0, Math.round(total - this.agentMs - this.gatesMs)),
      },
      startedAt: this.startedAt,
      endedAt: this.deps.clock.now().toISOString(),
      artefacts: { ...this.written, result: resultKey },
    });
    await this.deps.artefacts.put(resultKey, asBytes(`${JSON.stringify(result, null, 2)}\n`));
    this.result = result;
    this.log('result', { outcome: result.outcome, cause: result.cause, commit: result.commit });
    return result;
  }

  /**
   * After an unexpected error: undo what the agent may have left (kept as evidence), then
   * report `runner_error` — unless the counted commit is already on the branch: then the
   * iteration passed, and result.json says so. Each step is best effort; returns the
   * result written, if any.
   */
  async reportRunnerError(error: unknown): Promise<IterationResult | undefined> {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    this.log('runner-error', { error: message });
    if (this.committed !== undefined) {
      if (this.result) return this.result;
      try {
        return await this.finish({ outcome: 'passed', commit: this.committed });
      } catch (reportError) {
        this.log('runner-error-report-failed', { error: (reportError as Error).message });
        return undefined;
      }
    }
    let evidenceRef = this.unpushedEvidence;
    if (this.dirtySession) {
      try {
        evidenceRef = (await this.keepEvidence(this.dirtySession, 'runner_error')).evidence?.ref;
      } catch (undoError) {
        this.log('runner-error-undo-failed', { error: (undoError as Error).message });
      }
    }
    if (this.result) return this.result;
    try {
      return await this.finish({
        outcome: 'runner_error',
        cause: message.split('\n')[0] ?? message,
        failureDetail: message,
        ...(evidenceRef === undefined ? {} : { evidenceRef }),
      });
    } catch (reportError) {
      this.log('runner-error-report-failed', { error: (reportError as Error).message });
      return undefined;
    }
  }

  /** `dir` as the git wrappers take it: their processes go through the deps' spawner. */
  private at(dir: string): git.Repo {
    return { dir, spawner: this.deps.spawner };
  }

  private log(event: string, fields: Record<string, unknown> = {}): void {
    this.deps.log?.({
      event,
      runId: this.run.runId,
      iteration: this.record.iteration,
      ...fields,
    });
  }
}

/** A failed gate's name, with why the quality settings failed it when its exit code did not. */
function withQualityReason(name: string, quality: QualityAssessment): string {
  const overruled = quality.overruled.find((entry) => entry.gate === name);
  return overruled ? `${name} (${overruled.reason})` : name;
}

/** `refs/heads/a/b` → `a/b`. */
function branchName(ref: string): string {
  return ref.replace(/^refs\/heads\//, '');
}

/**
 * A body the S3 client can measure. It sends no Content-Length for an empty string (a
 * falsy body), and then warns of "a Stream of unknown length": an empty diff.patch or
 * transcript.jsonl is a zero-length Buffer instead.
 */
function asBytes(body: string | Uint8Array): Uint8Array {
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
}

/**
 * Validates prd.json but returns the object as written, so that re-serialising keeps its
 * key order (zod would move unknown keys after the known ones).
 */
function parsePrd(text: string, path: string): Prd {
  const raw = parseJsonText(text, path);
  parseOrThrow(PrdSchema, raw, path);
  return raw as Prd;
}
