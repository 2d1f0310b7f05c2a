/**
 * After the agent: its change is staged and read while the branches are checked and the
 * runner's files put back, and the agent's exit is judged. What comes out is a verdict
 * that rejects the change, "nothing changed", or the change for the gates.
 */
import { classifyAgentExit, joinDetail, outputTail, type Verdict } from './agent-outcome.js';
import type { CancelWatch } from './cancel-watch.js';
import { git } from '../git/command.js';
import { stagedChange } from '../git/diff.js';
import { addAll } from '../git/staging.js';
import { restoreRunnerFiles } from '../working-copy/runner-files.js';
import { checkBranches } from './branch-check.js';
import type { Iteration } from './iteration.js';
import type { Session } from './prepare.js';
import { agentCommand, type AgentRun } from './run-agent.js';
import { settle, unwrap } from './settled.js';
import { stopVerdict } from './stop.js';

/** The agent's whole change: the paths and the binary patch, against `base`. */
export interface StagedChange {
  files: string[];
  patch: Uint8Array;
}

export type AfterAgent =
  /** The change does not count: keep it as evidence and reset. */
  | { kind: 'rejected'; verdict: Verdict }
  /** The agent exited 0 and changed nothing. */
  | { kind: 'unchanged'; verdict: Verdict }
  /** A change for the gates; HEAD is on the run branch, at `head`. */
  | { kind: 'changed'; change: StagedChange; head: string };

/**
 * Reads what the agent left. The prompt's write (made while the agent ran) is settled here,
 * before anything is decided: every iteration keeps what it was told, and a failed write is
 * a runner error, after the agent has ended.
 */
export async function inspectAfterAgent(
  it: Iteration,
  session: Session,
  agent: AgentRun,
  cancel: CancelWatch,
): Promise<AfterAgent> {
  const { workspace, base } = session;
  const { files } = workspace;
  // Staging leaves the runner's files out, so it runs while they are restored; a failure
  // below stages again (keepEvidence), so staging first changes nothing for it. Against
  // HEAD when the agent did not commit, the staged change is the agent's whole change; its
  // patch is kept for a pass without gates, when nothing can change it since.
  const [branches, staging, stored] = await Promise.all([
    settle(checkBranches(it, session, 'the agent')),
    settle(
      addAll(workspace, files.inRepo).then(() =>
        stagedChange(workspace, base, files.inRepo, { binary: true }),
      ),
    ),
    settle(
      session.promptWritten.then(unwrap).then(() => restoreRunnerFiles(files, session.snapshot)),
    ),
  ]);
  const { problems: strayed, runHead } = unwrap(branches);
  unwrap(stored);
  const judged = judgeAgent(it, agent, cancel, strayed);
  if (judged) return judged;
  // Staging matters only for a change that may count.
  const change = unwrap(staging);
  // No problem: HEAD is on the run branch, at its head.
  const head = runHead ?? (await git(workspace, ['rev-parse', 'HEAD']));
  if (head !== base || change.files.length > 0) return { kind: 'changed', change, head };
  const cause = 'the agent exited 0 without changing anything';
  session.transcript.note(`runner: no_changes: ${cause}`);
  return {
    kind: 'unchanged',
    verdict: {
      outcome: 'no_changes',
      cause,
      failureDetail: joinDetail(cause, [['agent stdout', outputTail(agent.result.stdout)]]),
    },
  };
}

/** A stopped, failed or stray agent's verdict; undefined when its change may count. */
function judgeAgent(
  it: Iteration,
  agent: AgentRun,
  cancel: CancelWatch,
  strayed: string | undefined,
): AfterAgent | undefined {
  const { result } = agent;
  if (result.aborted)
    return { kind: 'rejected', verdict: stopVerdict(cancel, 'while the agent ran') };
  const failure = classifyAgentExit(result, agentCommand(it), it.run.config.agent.timeoutSeconds);
  if (failure)
    return {
      kind: 'rejected',
      verdict: {
        ...failure,
        ...(strayed ? { cause: `${failure.cause ?? ''}; ${strayed}` } : {}),
      },
    };
  if (strayed)
    return {
      kind: 'rejected',
      verdict: {
        outcome: 'agent_failed',
        cause: strayed,
        failureDetail: joinDetail(strayed, [['agent stdout', outputTail(result.stdout)]]),
      },
    };
  return undefined;
}
