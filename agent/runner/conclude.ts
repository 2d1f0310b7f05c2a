/**
 * From the agent's start until the working copy holds no uncommitted change of the agent's
 * again: the agent, the checks after it, the gates, and then either the counted commit or
 * the change kept as evidence and the code restored. This is the one place that knows the
 * copy may be dirty: an unexpected error here keeps the change as evidence and restores
 * the code before it is reported.
 */
import type { AgentReport } from '../../lambdas/core/prompts/iteration-prompt.js';
import type { Verdict } from './agent-outcome.js';
import type { CancelWatch } from './cancel-watch.js';
import type { GateRun } from '../checks/gates.js';
import { inspectAfterAgent, type StagedChange } from './after-agent.js';
import { writeChangeArtefacts } from './change-artefacts.js';
import { commitCounted, stageCountedChange } from './counted-commit.js';
import { keepEvidence, type KeptEvidence } from './evidence.js';
import type { ChangeArtefacts, Facts } from './facts.js';
import type { Iteration } from './iteration.js';
import type { Session } from './prepare.js';
import { runAgent, type AgentRun } from './run-agent.js';
import { gateChange } from './run-gates.js';
import { unwrap } from './settled.js';
import { stopVerdict } from './stop.js';

/** How the section ended; in each case the working copy holds no change of the agent's. */
export type Concluded =
  /** The agent changed nothing (and the gates could not show the story met already). */
  | { kind: 'unchanged'; verdict: Verdict; facts: Facts }
  /** The change did not count; it is kept as evidence (when there was one) and reset. */
  | { kind: 'rejected'; verdict: Verdict; facts: Facts; kept: KeptEvidence; gateRuns?: GateRun[] }
  /** The counted commit is made (not yet pushed, for a clone); its artefacts are being written. */
  | { kind: 'committed'; commit: string; facts: Facts; artefacts: Promise<ChangeArtefacts> }
  /** Something failed unexpectedly; the change is kept as evidence when it could be. */
  | {
      kind: 'failed';
      error: unknown;
      facts: Facts;
      evidenceRef?: string;
      artefacts?: Promise<ChangeArtefacts>;
    };

/** What a failure would report: replaced (never changed) as each stage ends. */
interface Known {
  facts: Facts;
  /** The change artefacts of a commit that is being made. */
  artefacts?: Promise<ChangeArtefacts>;
}

/** Runs the agent and settles its change. Never rejects. */
export async function concludeChange(
  it: Iteration,
  session: Session,
  cancel: CancelWatch,
): Promise<Concluded> {
  let known: Known = { facts: {} };
  const reject = async (verdict: Verdict, facts: Facts, gateRuns?: GateRun[]) => {
    session.transcript.note(`runner: ${verdict.outcome}: ${verdict.cause ?? ''}`);
    const kept = await keepEvidence(it, session, verdict.outcome);
    return { kind: 'rejected', verdict, facts, kept, ...(gateRuns ? { gateRuns } : {}) } as const;
  };
  try {
    if (cancel.signal.aborted) {
      unwrap(await session.promptWritten);
      return await reject(stopVerdict(cancel, 'before the agent started'), known.facts);
    }
    const agent = await runAgent(it, session, cancel.signal);
    known = { facts: { agent: agent.facts } };
    const after = await inspectAfterAgent(it, session, agent, cancel);
    if (after.kind === 'rejected') return await reject(after.verdict, known.facts);
    const unchanged = after.kind === 'unchanged';
    if (unchanged && !mayBeDoneAlready(it, agent)) return { ...after, facts: known.facts };
    // A story whose work is already in the repository: the gates decide, as for a change.
    const staged = unchanged ? { change: NO_CHANGE, head: session.base } : after;
    const gated = await gateChange(it, session, staged, cancel);
    known = { facts: { ...known.facts, ...gated.facts } };
    if (gated.rejection) return await reject(gated.rejection, known.facts, gated.runs);
    const report = unchanged ? noChangeNeeded(agent.report) : agent.report;
    const counted = await stageCountedChange(it, session, report, staged.change, gated.runs);
    // Written while the commit is made (and pushed), so that result.json follows it at once.
    const artefacts = writeChangeArtefacts(it, session, counted.patch, gated.runs);
    const facts = {
      ...known.facts,
      filesChanged: counted.filesChanged,
      progressArchive: counted.progressArchive,
    };
    known = { facts, artefacts };
    const commit = await commitCounted(session, counted.message);
    return { kind: 'committed', commit, facts, artefacts };
  } catch (error) {
    const restored = await restoreAfterError(it, session);
    return {
      kind: 'failed',
      error,
      facts: { ...known.facts, ...restored.facts },
      ...(restored.evidenceRef === undefined ? {} : { evidenceRef: restored.evidenceRef }),
      ...(known.artefacts ? { artefacts: known.artefacts } : {}),
    };
  }
}

const NO_CHANGE: StagedChange = { files: [], patch: new Uint8Array() };

/**
 * The agent changed nothing but reported what it did (its summary): the story may already
 * be met by the code. Only gates can say so; with none (or only advisory ones), nothing
 * would be checked, and "nothing changed" stands.
 */
function mayBeDoneAlready(it: Iteration, agent: AgentRun): boolean {
  return agent.report.summary !== undefined && it.run.config.gates.some((gate) => gate.blocking);
}

/** The agent's report, saying in progress.txt that the story needed no change. */
function noChangeNeeded(report: AgentReport): AgentReport {
  return { ...report, summary: `${report.summary ?? ''} (no change was needed)`.trim() };
}

/**
 * The working copy may hold the agent's change: it is kept as evidence and the code
 * restored, as a failed iteration's would be. Best effort: a failure to do so is logged.
 */
async function restoreAfterError(
  it: Iteration,
  session: Session,
): Promise<{ facts: Facts; evidenceRef?: string }> {
  try {
    const { evidence, filesChanged } = await keepEvidence(it, session, 'runner_error');
    return evidence
      ? { facts: filesChanged ? { filesChanged } : {}, evidenceRef: evidence.ref }
      : { facts: {} };
  } catch (undoError) {
    it.log('runner-error-undo-failed', { error: (undoError as Error).message });
    return { facts: {} };
  }
}
