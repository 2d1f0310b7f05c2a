/**
 * What every stage of the runner reads and nothing changes: the dependencies passed in,
 * the run and the claimed iteration, and the iteration's log.
 */
import type { PromptTemplates } from '../../lambdas/core/prompts/templates.js';
import type { IterationRecord } from '../../lambdas/core/schemas/iteration.js';
import type { RunRecord } from '../../lambdas/core/schemas/run.js';
import type { ArtefactStore, Clock, RunStore } from '../../lambdas/ports.js';
import type { Remote } from '../git/remote.js';
import type { Spawner } from '../process/spawner.js';
import type { LiveTranscriptPort } from './live-transcript.js';

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
  /** The words of the prompt (loaded by the entry point). */
  templates: PromptTemplates;
  /**
   * Starts git, the agent, the gates and the evaluation suite: plain child processes in the
   * container (agent/process/child-process-spawner.ts), the spawn server locally.
   */
  spawner: Spawner;
  /** Where git-URL repositories are cloned. Default: the OS temp dir. */
  workspaceRoot?: string;
  /** Sent to the git remote for clone and push; never given to the agent or the gates. */
  gitToken?: string;
  /**
   * The agent's model access, asked for before each agent run (on Bedrock: a session that
   * may only invoke models, lambdas/adapters/agent-model-session.ts): added to the agent's
   * environment only, under what the run's config sets. Never given to the gates.
   */
  agentModelAccess?: () => Promise<Record<string, string>>;
  /**
   * Where the agent's output goes as it comes, for `ralph watch --follow` in another
   * process (locally: a file under the data dir). Without it, only transcript.jsonl has it.
   */
  liveTranscripts?: LiveTranscriptPort;
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

/** One claimed iteration, as every stage sees it. */
export interface Iteration {
  readonly deps: RunnerDeps;
  readonly run: RunRecord;
  readonly record: IterationRecord;
  /** `performance.now()` once claimed: the runner's own time is counted from here. */
  readonly started: number;
  readonly startedAt: string;
  log(event: string, fields?: Record<string, unknown>): void;
}

/** The iteration just claimed, its clock started. */
export function claimedIteration(
  deps: RunnerDeps,
  run: RunRecord,
  record: IterationRecord,
): Iteration {
  return {
    deps,
    run,
    record,
    started: performance.now(),
    startedAt: record.startedAt ?? deps.clock.now().toISOString(),
    log: (event, fields = {}) =>
      deps.log?.({ event, runId: run.runId, iteration: record.iteration, ...fields }),
  };
}

/** The grace period between SIGTERM and SIGKILL, when the deps set one. */
export function killGrace(deps: RunnerDeps): { killGraceMs?: number } {
  return deps.killGraceMs === undefined ? {} : { killGraceMs: deps.killGraceMs };
}

/**
 * The run's remote: the URL its record names and the token. Only a run on a git URL
 * pushes (its working copy is a clone); asking for a local run's is a bug.
 */
export function runRemote(it: Iteration): Remote {
  const { repo } = it.run;
  if (repo.kind !== 'git')
    throw new Error(`run ${it.run.runId} works on a local path: nothing to push to`);
  return { url: repo.url, ...(it.deps.gitToken === undefined ? {} : { token: it.deps.gitToken }) };
}
