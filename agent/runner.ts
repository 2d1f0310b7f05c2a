/**
 * The iteration runner: what runs inside the agent container (and, locally, in-process)
 * for ONE iteration. It claims the iteration, prepares the working copy, runs the agent
 * with the rendered prompt, runs the quality gates itself, and either makes the one
 * counted commit or keeps the change as evidence and resets. It reports through
 * `result.json`; record-iteration, not the runner, moves the iteration to its final state.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { artefactKeys, type IterationArtefact } from '../lambdas/core/artefact-keys.js';
import {
  IterationClaimedError,
  NotFoundError,
  VersionConflictError,
} from '../lambdas/core/errors.js';
import { serializePrd, withStoryPassed } from '../lambdas/core/prd.js';
import { addCodebasePatterns, appendProgressEntry } from '../lambdas/core/progress-log.js';
import {
  buildIterationPrompt,
  parseAgentReport,
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
import { blockingGatesPassed, describeGateFailures, runGates, type GateRun } from './gates.js';
import * as git from './git.js';
import { runCommand, type CommandResult } from './process.js';
import { Transcript } from './transcript.js';
import {
  checkoutRunBranch,
  openWorkspace,
  prepareRunnerFiles,
  restoreRunnerFiles,
  snapshotRunnerFiles,
  type RunnerSnapshot,
  type Workspace,
} from './workspace.js';

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

/** Environment the agent and the gates must not see. */
const WITHHELD_ENV = { GIT_TOKEN: undefined };

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
  const run = await deps.runs.getRun(input.runId);
  if (!run) throw new NotFoundError(`run ${input.runId} does not exist`);
  const record = await claim(deps, input);
  const iteration = new IterationRun(deps, run, record);
  try {
    return await iteration.execute();
  } catch (error) {
    await iteration.reportRunnerError(error);
    throw error;
  }
}

async function claim(deps: RunnerDeps, input: RunIterationInput): Promise<IterationRecord> {
  const record = await deps.runs.getIteration(input.runId, input.iteration);
  if (!record)
    throw new NotFoundError(`iteration ${input.iteration} of run ${input.runId} does not exist`);
  if (record.status !== 'planned') throw new IterationClaimedError(input.runId, input.iteration);
  try {
    return await deps.runs.saveIteration(
      {
        ...record,
        status: 'running',
        startedAt: deps.clock.now().toISOString(),
      },
      record.version,
    );
  } catch (error) {
    if (error instanceof VersionConflictError)
      throw new IterationClaimedError(input.runId, input.iteration, { cause: error });
    throw error;
  }
}

/** The working state from the moment the agent may touch the working copy. */
interface Session {
  workspace: Workspace;
  plan: IterationPlan;
  prompt: string;
  /** HEAD before the agent ran: what a reset goes back to. */
  base: string;
  snapshot: RunnerSnapshot;
  transcript: Transcript;
  cancel: CancelWatch;
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
  /** Set while the working copy may hold an uncommitted change: what an error must undo. */
  private dirtySession: Session | undefined;
  private resultWritten = false;

  constructor(
    private readonly deps: RunnerDeps,
    private readonly run: RunRecord,
    private readonly record: IterationRecord,
  ) {
    this.startedAt = record.startedAt ?? deps.clock.now().toISOString();
  }

  async execute(): Promise<IterationResult> {
    this.log('claimed', { taskId: this.record.taskId });
    const plan = await this.readPlan();
    const opened = await openWorkspace(this.run, {
      workspaceRoot: this.deps.workspaceRoot ?? tmpdir(),
      iteration: this.record.iteration,
      ...(this.deps.gitToken === undefined ? {} : { gitToken: this.deps.gitToken }),
    });
    if (!('dir' in opened)) return this.finish(opened);
    try {
      return await this.inWorkspace(opened, plan);
    } finally {
      await opened.dispose();
    }
  }

  /** Steps 4 to 6: branch, Ralph's bookkeeping files, prompt; then the agent. */
  private async inWorkspace(workspace: Workspace, plan: IterationPlan): Promise<IterationResult> {
    const { dir, files } = workspace;
    await checkoutRunBranch(dir, this.run.branchName);
    const archived = await prepareRunnerFiles(files, this.run.branchName, {
      now: this.deps.clock.now(),
      runStart: this.record.iteration === 1,
    });
    if (archived) this.log('archived', { folder: archived });

    const prd = parsePrd(await readFile(files.prd, 'utf8'), files.prd);
    if (!prd.userStories.some((story) => story.id === plan.story.id))
      throw new NotFoundError(`story ${plan.story.id} is not in ${files.prd}`);
    const prompt = buildIterationPrompt({
      plan,
      prd,
      progressText: await readFile(files.progress, 'utf8'),
      gates: this.run.config.gates,
      branchName: this.run.branchName,
    });
    await this.put('prompt.md', prompt);

    const session: Session = {
      workspace,
      plan,
      prompt,
      base: await git.git(dir, ['rev-parse', 'HEAD']),
      snapshot: await snapshotRunnerFiles(files),
      transcript: new Transcript(),
      cancel: new CancelWatch(this.deps.runs, this.run.runId, {
        ...(this.deps.cancelPollMs === undefined ? {} : { pollMs: this.deps.cancelPollMs }),
        ...(this.deps.signal === undefined ? {} : { signal: this.deps.signal }),
      }),
    };
    try {
      return await this.agentAndGates(session);
    } finally {
      await session.cancel.stop();
    }
  }

  /** Steps 7 to 9: the agent, the gates, and the verdict. */
  private async agentAndGates(session: Session): Promise<IterationResult> {
    const { workspace, base, transcript, cancel } = session;
    const { dir, files } = workspace;
    if (await cancel.check()) return this.stopEarly(session, undefined, 'before the agent started');

    this.dirtySession = session;
    const agent = await this.runAgent(session);
    await restoreRunnerFiles(files, session.snapshot);
    this.report = parseAgentReport(agent.stdout);
    if (agent.aborted) return this.stopEarly(session, undefined, 'while the agent ran');
    const agentFailure = classifyAgentExit(
      agent,
      this.agentCommand(),
      this.run.config.agent.timeoutSeconds,
    );
    if (agentFailure) return this.fail(session, undefined, agentFailure);

    await git.addAll(dir, files.inRepo);
    const head = await git.git(dir, ['rev-parse', 'HEAD']);
    if (head === base && !(await git.hasStagedChanges(dir, files.inRepo))) {
      this.dirtySession = undefined;
      const cause = 'the agent exited 0 without changing anything';
      transcript.note(`runner: no_changes: ${cause}`);
      await this.putChangeArtefacts(session, undefined, undefined);
      return this.finish({
        outcome: 'no_changes',
        cause,
        failureDetail: joinDetail(cause, [['agent stdout', outputTail(agent.stdout)]]),
      });
    }
    const changed = await git.stagedFiles(dir, base, files.inRepo);

    const gatesStarted = performance.now();
    const gateRuns = await runGates(this.run.config.gates, dir, {
      signal: cancel.signal,
      env: WITHHELD_ENV,
      ...(this.deps.killGraceMs === undefined ? {} : { killGraceMs: this.deps.killGraceMs }),
    });
    this.gatesMs = performance.now() - gatesStarted;
    this.gates = gateRuns.map((gateRun) => gateRun.result);
    this.log('gates', { gates: this.gates.map(({ name, passed }) => ({ name, passed })) });

    if (cancel.signal.aborted) return this.stopEarly(session, gateRuns, 'while the gates ran');
    if (!blockingGatesPassed(this.gates)) {
      const failed = this.gates
        .filter((gate) => gate.blocking && !gate.passed)
        .map((gate) => gate.name);
      return this.fail(session, gateRuns, {
        outcome: 'gates_failed',
        cause: `blocking gate${failed.length > 1 ? 's' : ''} failed: ${failed.join(', ')}`,
        failureDetail: describeGateFailures(this.gates),
      });
    }
    return this.pass(session, changed, gateRuns);
  }

  private agentCommand(): string {
    return this.run.config.agent.command ?? CLAUDE_CODE_COMMAND;
  }

  private async runAgent(session: Session): Promise<CommandResult> {
    const { workspace, plan, transcript } = session;
    const config = this.run.config.agent;
    this.log('agent-started', { command: this.agentCommand() });
    const result = await runCommand({
      command: this.agentCommand(),
      cwd: workspace.dir,
      stdin: session.prompt,
      env: {
        ...config.env,
        ...WITHHELD_ENV,
        // For scripted agents, which would rather not parse the prompt.
        RALPH_RUN_ID: this.run.runId,
        RALPH_ITERATION: String(this.record.iteration),
        RALPH_STORY_ID: plan.story.id,
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

  /** Gates passed: the story passes, progress is logged, and one commit counts. */
  private async pass(
    session: Session,
    changed: string[],
    gateRuns: GateRun[],
  ): Promise<IterationResult> {
    const { workspace, plan, snapshot, base } = session;
    const { dir, files } = workspace;
    const prd = parsePrd(snapshot.prd, files.prd);
    await writeFile(files.prd, serializePrd(withStoryPassed(prd, plan.story.id)));
    const progress = appendProgressEntry(snapshot.progress, {
      at: this.deps.clock.now(),
      storyId: plan.story.id,
      summary: this.report.summary ?? `Implemented ${plan.story.id}: ${plan.story.title}`,
      filesChanged: changed,
      learnings: this.report.learnings,
    });
    await writeFile(files.progress, addCodebasePatterns(progress, this.report.codebasePatterns));

    await git.addAll(dir);
    // Empty only when the prd lives outside the repository and the agent committed
    // everything itself; the runner's commit still marks the iteration that counted.
    const commit = await git.commit(dir, `feat: ${plan.story.id} - ${plan.story.title}`, {
      allowEmpty: true,
    });
    this.dirtySession = undefined;
    if (workspace.cloned) await git.push(dir, this.run.branchName, this.deps.gitToken);
    this.filesChanged = await git.filesChanged(dir, base, commit, files.inRepo);
    session.transcript.note(`runner: passed: committed ${commit}`);
    this.log('committed', { commit });
    await this.putChangeArtefacts(session, commit, gateRuns);
    return this.finish({ outcome: 'passed', commit });
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
    const evidence = await this.keepEvidence(session, verdict.outcome);
    await this.putChangeArtefacts(session, evidence?.sha, gateRuns);
    return this.finish({ ...verdict, ...(evidence ? { evidenceRef: evidence.ref } : {}) });
  }

  /**
   * Commits whatever the agent changed under `refs/ralph/evidence/<run>/<n>` (no branch
   * moves), then puts the working copy back at `base` and the runner's files back to their
   * snapshot. Ignored files (node_modules) and the runner's untracked files survive.
   */
  private async keepEvidence(
    session: Session,
    outcome: IterationOutcome,
  ): Promise<{ ref: string; sha: string } | undefined> {
    const { workspace, base, snapshot, plan } = session;
    const { dir, files } = workspace;
    await restoreRunnerFiles(files, snapshot);
    await git.addAll(dir, files.inRepo);
    const head = await git.git(dir, ['rev-parse', 'HEAD']);
    let evidence: { ref: string; sha: string } | undefined;
    if (head !== base || (await git.hasStagedChanges(dir, files.inRepo))) {
      const sha = await git.commitDetached(
        dir,
        `evidence: ${plan.story.id} - ${plan.story.title} (iteration ${this.record.iteration}, ${outcome})`,
      );
      const ref = `refs/ralph/evidence/${this.run.runId}/${this.record.iteration}`;
      await git.updateRef(dir, ref, sha);
      evidence = { ref, sha };
      this.filesChanged = await git.filesChanged(dir, base, sha, files.inRepo);
      session.transcript.note(`runner: change kept as ${ref} (${sha})`);
    }
    await git.resetHard(dir, base);
    await git.clean(dir, files.inRepo);
    await restoreRunnerFiles(files, snapshot);
    this.dirtySession = undefined;
    if (evidence) {
      this.log('evidence', evidence);
      if (workspace.cloned) await this.pushEvidence(dir, evidence.ref);
    }
    return evidence;
  }

  /** Best effort: the clone is about to vanish, and the ref with it. */
  private async pushEvidence(dir: string, ref: string): Promise<void> {
    try {
      await git.push(dir, ref, this.deps.gitToken);
    } catch (error) {
      this.log('evidence-push-failed', { error: (error as Error).message });
    }
  }

  /** transcript.jsonl, diff.patch and (when the gates ran) gates.json with full outputs. */
  private async putChangeArtefacts(
    session: Session,
    commit: string | undefined,
    gateRuns: GateRun[] | undefined,
  ): Promise<void> {
    const { workspace, base, transcript } = session;
    await this.put('transcript.jsonl', transcript.toJsonl());
    const patch =
      commit === undefined ? '' : await git.diff(workspace.dir, base, commit, { binary: true });
    await this.put('diff.patch', patch);
    if (!gateRuns) return;
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
    await this.put('gates.json', `${JSON.stringify({ gates }, null, 2)}\n`);
  }

  private async readPlan(): Promise<IterationPlan> {
    const key = artefactKeys.iteration(this.run.runId, this.record.iteration, 'plan.json');
    const text = await this.deps.artefacts.getText(key);
    const plan = parseOrThrow(IterationPlanSchema, parseJsonText(text, key), key);
    this.written.plan = key;
    return plan;
  }

  private async put(name: IterationArtefact, body: string | Uint8Array): Promise<void> {
    const key = artefactKeys.iteration(this.run.runId, this.record.iteration, name);
    await this.deps.artefacts.put(key, body);
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
      outcome: verdict.outcome,
      cause: verdict.cause,
      failureDetail:
        verdict.failureDetail ?? (verdict.outcome === 'passed' ? '' : (verdict.cause ?? '')),
      gates: this.gates,
      commit: verdict.commit,
      evidenceRef: verdict.evidenceRef,
      agentExitCode: this.agentExitCode,
      agentClaimedComplete: this.report.claimedComplete,
      filesChanged: this.filesChanged,
      durations: {
        agentMs: Math.round(this.agentMs),
        gatesMs: Math.round(this.gatesMs),
        runnerMs: Math.max(0, Math.round(total - this.agentMs - this.gatesMs)),
      },
      startedAt: this.startedAt,
      endedAt: this.deps.clock.now().toISOString(),
      artefacts: { ...this.written, result: resultKey },
    });
    await this.deps.artefacts.put(resultKey, `${JSON.stringify(result, null, 2)}\n`);
    this.resultWritten = true;
    this.log('result', { outcome: result.outcome, cause: result.cause, commit: result.commit });
    return result;
  }

  /**
   * After an unexpected error: undo what the agent may have left (kept as evidence), then
   * report `runner_error`. Each step is best effort; the original error is what matters.
   */
  async reportRunnerError(error: unknown): Promise<void> {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    this.log('runner-error', { error: message });
    let evidenceRef: string | undefined;
    if (this.dirtySession) {
      try {
        evidenceRef = (await this.keepEvidence(this.dirtySession, 'runner_error'))?.ref;
      } catch (undoError) {
        this.log('runner-error-undo-failed', { error: (undoError as Error).message });
      }
    }
    if (this.resultWritten) return;
    try {
      await this.finish({
        outcome: 'runner_error',
        cause: message.split('\n')[0] ?? message,
        failureDetail: message,
        ...(evidenceRef === undefined ? {} : { evidenceRef }),
      });
    } catch (reportError) {
      this.log('runner-error-report-failed', { error: (reportError as Error).message });
    }
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

/**
 * Validates prd.json but returns the object as written, so that re-serialising keeps its
 * key order (zod would move unknown keys after the known ones).
 */
function parsePrd(text: string, path: string): Prd {
  const raw = parseJsonText(text, path);
  parseOrThrow(PrdSchema, raw, path);
  return raw as Prd;
}
