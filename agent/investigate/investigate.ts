/**
 * The investigate iteration (issue: error-triggered investigate runs; design:
 * shared/design/error-triggered-multipass.md, with the project's real gates where it used a
 * syntax check). On a fresh fix branch from the base:
 *
 *   the gates on the untouched base (the baseline) → analysis passes, each a fresh agent
 *   (another only after a low-confidence pass without a fix, seeded with its findings) →
 *   with a fix: the gates again, compared with the baseline → on a broken gate, one
 *   correction pass and the gates once more → the fix committed on the fix branch (and,
 *   for a clone, pushed to a private ref), or kept as evidence.
 *
 * An investigation that concludes, whatever its verdict, is `passed`: its analysis is the
 * deliverable and the pull request step reads the verdict. An agent that fails, a stop
 * or a runner error keeps its usual outcome, so the loop tries the task again.
 */
import { bestPass, needsAnotherPass } from '../../lambdas/core/investigate/best-pass.js';
import { concludeInvestigation } from '../../lambdas/core/investigate/conclusion.js';
import { brokenGates } from '../../lambdas/core/investigate/gate-comparison.js';
import {
  buildAnalysisPrompt,
  buildCorrectionPrompt,
} from '../../lambdas/core/investigate/investigation-prompt.js';
import { runContext } from '../../lambdas/core/investigate/run-context.js';
import { fixBranchName } from '../../lambdas/core/incidents/short-fingerprint.js';
import type { ErrorGroup } from '../../lambdas/core/schemas/error-group.js';
import type { IterationResult } from '../../lambdas/core/schemas/iteration-result.js';
import type {
  AnalysisPass,
  InvestigationResult,
  RunInvestigation,
} from '../../lambdas/core/schemas/investigation.js';
import { runGates, type GateRun } from '../checks/gates.js';
import type { Verdict } from '../runner/agent-outcome.js';
import type { StagedChange } from '../runner/after-agent.js';
import { watchRunCancel } from '../runner/cancel-watch.js';
import { killGrace, type Iteration } from '../runner/iteration.js';
import type { OpenedWorkspace } from '../runner/open.js';
import { reportRunnerError } from '../runner/result.js';
import { settle } from '../runner/settled.js';
import { stopVerdict } from '../runner/stop.js';
import { Transcript } from '../runner/transcript.js';
import {
  checkoutFixBranch,
  commitFix,
  dropGateLeftovers,
  keepFixEvidence,
  leaveFixCopy,
  pushFix,
  type FixCopy,
} from './fix-copy.js';
import { earlierInvestigations, readErrorGroup } from './inputs.js';
import { runPass } from './pass.js';
import { reportInvestigation, type Timing } from './report.js';

/** The longest commit subject taken from an error's title. */
const SUBJECT_TITLE_CHARS = 72;
const NO_CHANGE: StagedChange = { files: [], patch: new Uint8Array() };

/**
 * Investigates the iteration's error group in the opened working copy and writes
 * result.json. Rejects only after result.json says `runner_error`.
 */
export async function investigate(
  it: Iteration,
  opened: OpenedWorkspace,
  investigation: RunInvestigation,
): Promise<IterationResult> {
  const { workspace, plan } = opened;
  const taskId = plan.story.id;
  const cancel = watchRunCancel(it);
  let fix: FixCopy | undefined;
  let verified = false;
  try {
    const group = await readErrorGroup(it, taskId);
    const branch = fixBranchName(group);
    const previous = workspace.refs.current?.replace(/^refs\/heads\//, '');
    const base = await checkoutFixBranch(workspace, branch, investigation.baseBranch);
    it.log('investigation-started', { branch, base });
    fix = {
      it,
      workspace,
      plan,
      taskId,
      branch,
      base,
      ...(previous === undefined ? {} : { previous }),
      transcript: new Transcript(),
      cancel,
      prompts: [],
    };
    const result = await new Investigation(fix, group, investigation, opened).run();
    verified = result.investigation?.verdict === 'fix-verified';
    return result;
  } catch (error) {
    const kept = fix ? await settle(keepFixEvidence(fix, 'runner_error')) : undefined;
    const evidenceRef = kept?.status === 'fulfilled' ? kept.value : undefined;
    return await reportRunnerError(it, error, {
      facts: opened.facts,
      ...(evidenceRef === undefined ? {} : { evidenceRef }),
    });
  } finally {
    if (fix) {
      const left = await settle(leaveFixCopy(fix, verified));
      if (left.status === 'rejected')
        it.log('investigation-leave-failed', { error: (left.reason as Error).message });
    }
    await cancel.stop();
  }
}

/** One investigation's stages, sharing the fix copy, the passes so far and the time spent. */
class Investigation {
  private readonly passes: AnalysisPass[] = [];
  private readonly timing: Timing = { agentMs: 0, gatesMs: 0 };

  constructor(
    private readonly fix: FixCopy,
    private readonly group: ErrorGroup,
    private readonly investigation: RunInvestigation,
    private readonly opened: OpenedWorkspace,
  ) {}

  async run(): Promise<IterationResult> {
    const { fix } = this;
    const before = await this.gates();
    if (fix.cancel.signal.aborted) return this.stop(stopVerdict(fix.cancel, 'while the gates ran'));
    await dropGateLeftovers(fix);
    const analysed = await this.analyse();
    if ('verdict' in analysed) return this.stop(analysed.verdict);
    if (analysed.change.files.length === 0)
      return this.conclude({ before, after: [], broken: [], change: NO_CHANGE });
    return this.verify(before, analysed.change);
  }

  /** Analysis passes until one is confident or fixes, or none are left. */
  private async analyse(): Promise<{ change: StagedChange } | { verdict: Verdict }> {
    const { fix, investigation } = this;
    const { maxPasses, runContextChars } = investigation.settings;
    const context = runContext(await earlierInvestigations(fix.it, fix.taskId), runContextChars);
    for (let number = 1; number <= maxPasses; number += 1) {
      const previous = this.passes.at(-1);
      const prompt = buildAnalysisPrompt({
        taskId: fix.taskId,
        group: this.group,
        pass: number,
        maxPasses,
        runContext: context,
        ...(previous ? { previous } : {}),
        branch: fix.branch,
        gates: fix.it.run.config.gates,
        templates: fix.it.deps.templates,
      });
      const ran = await this.pass(number, 'analysis', prompt);
      if ('verdict' in ran) return ran;
      if (!needsAnotherPass(ran.pass, maxPasses)) return { change: ran.change };
    }
    return { change: NO_CHANGE };
  }

  /** The fix against the baseline; one correction when it broke a gate; then its end. */
  private async verify(before: GateRun[], fixed: StagedChange): Promise<IterationResult> {
    const { fix } = this;
    let change = fixed;
    let after = await this.gates();
    if (fix.cancel.signal.aborted)
      return this.stop(stopVerdict(fix.cancel, 'while the gates ran'), change);
    let broken = brokenGates(results(before), results(after));
    const correction = { attempted: false, succeeded: false };
    if (broken.length > 0) {
      correction.attempted = true;
      await dropGateLeftovers(fix);
      const prompt = buildCorrectionPrompt({
        taskId: fix.taskId,
        group: this.group,
        fixed: bestPass(this.passes),
        gatesAfter: results(after),
        broken,
        branch: fix.branch,
        gates: fix.it.run.config.gates,
        templates: fix.it.deps.templates,
      });
      const ran = await this.pass(this.passes.length + 1, 'correction', prompt);
      if ('verdict' in ran) return this.stop(ran.verdict, change);
      change = ran.change;
      after = await this.gates();
      if (fix.cancel.signal.aborted)
        return this.stop(stopVerdict(fix.cancel, 'while the gates ran'), change);
      // A correction that undid the whole fix mends nothing: what it broke stays broken.
      if (change.files.length > 0) broken = brokenGates(results(before), results(after));
      correction.succeeded = change.files.length > 0 && broken.length === 0;
    }
    return this.conclude({ before, after, broken, change, correction });
  }

  /** The verdict: the fix committed (and pushed), or kept as evidence; then the report. */
  private async conclude(end: {
    before: GateRun[];
    after: GateRun[];
    broken: string[];
    change: StagedChange;
    correction?: InvestigationResult['correction'];
  }): Promise<IterationResult> {
    const { fix } = this;
    const hasFix = end.change.files.length > 0;
    let evidenceRef: string | undefined;
    let fixed: InvestigationResult['fix'];
    // The index holds the fix as staged after the last pass: what the gates wrote since is not.
    if (hasFix) await dropGateLeftovers(fix);
    if (hasFix && end.broken.length > 0)
      evidenceRef = await keepFixEvidence(fix, 'fix-failed-gates');
    else if (hasFix) {
      const commit = await commitFix(fix, this.commitMessage());
      const pushedRef = fix.workspace.cloned ? await pushFix(fix, commit) : undefined;
      fixed = { branch: fix.branch, commit, ...(pushedRef ? { pushedRef } : {}) };
      fix.transcript.note(`runner: fix committed on ${fix.branch} (${commit})`);
      fix.it.log('fix-committed', { branch: fix.branch, commit, pushedRef });
    }
    const investigation = concludeInvestigation({
      group: this.group,
      passes: this.passes,
      gatesBefore: results(end.before),
      gatesAfter: results(end.after),
      broken: end.broken,
      correction: end.correction ?? { attempted: false, succeeded: false },
      ...(fixed ? { fix: fixed } : {}),
    });
    fix.transcript.note(`runner: ${investigation.verdict}: ${investigation.summary}`);
    return reportInvestigation(fix, this.opened.facts, {
      verdict: { outcome: 'passed', ...(evidenceRef === undefined ? {} : { evidenceRef }) },
      investigation,
      patch: end.change.patch,
      filesChanged: end.change.files,
      gateRuns: end.after.length > 0 ? end.after : end.before,
      timing: this.timing,
    });
  }

  /** Stopped before a conclusion: the change kept as evidence, the verdict reported. */
  private async stop(verdict: Verdict, change: StagedChange = NO_CHANGE): Promise<IterationResult> {
    const { fix } = this;
    fix.transcript.note(`runner: ${verdict.outcome}: ${verdict.cause ?? ''}`);
    const evidenceRef = await keepFixEvidence(fix, verdict.outcome);
    return reportInvestigation(fix, this.opened.facts, {
      verdict: { ...verdict, ...(evidenceRef === undefined ? {} : { evidenceRef }) },
      patch: change.patch,
      filesChanged: change.files,
      gateRuns: [],
      timing: this.timing,
    });
  }

  private async pass(
    number: number,
    kind: AnalysisPass['kind'],
    prompt: string,
  ): Promise<{ pass: AnalysisPass; change: StagedChange } | { verdict: Verdict }> {
    const ran = await runPass(this.fix, { number, kind, prompt });
    this.timing.agentMs += ran.agentMs;
    if (ran.kind === 'stopped') return { verdict: ran.verdict };
    this.timing.lastExitCode = ran.pass.agentExitCode;
    this.passes.push(ran.pass);
    return ran;
  }

  private async gates(): Promise<GateRun[]> {
    const { it, workspace, cancel } = this.fix;
    const started = performance.now();
    const runs = await runGates(it.run.config.gates, workspace.dir, {
      spawner: it.deps.spawner,
      signal: cancel.signal,
      ...killGrace(it.deps),
    });
    this.timing.gatesMs += performance.now() - started;
    it.log('gates', {
      gates: runs.map(({ result }) => ({ name: result.name, passed: result.passed })),
    });
    return runs;
  }

  /** `fix: <title> (<task>)`, the root cause below. */
  private commitMessage(): string {
    const title = this.group.latest.title.replace(/\s+/g, ' ').trim();
    const short =
      title.length > SUBJECT_TITLE_CHARS ? `${title.slice(0, SUBJECT_TITLE_CHARS - 1)}…` : title;
    const analysis = bestPass(this.passes).analysis;
    const body = analysis
      ? `\n\nRoot cause (${analysis.confidence}): ${analysis.rootCause}\n`
      : '\n';
    return `fix: ${short} (${this.fix.taskId})${body}`;
  }
}

const results = (runs: readonly GateRun[]) => runs.map((run) => run.result);
