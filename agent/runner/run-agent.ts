/**
 * The agent stage: the coding agent runs with the rendered prompt on stdin, its output
 * going to the transcript as it comes; a cancel or an interruption stops it.
 */
import { parseAgentReport, type AgentReport } from '../../lambdas/core/prompts/iteration-prompt.js';
import { CLAUDE_CODE_COMMAND } from '../../lambdas/core/schemas/config.js';
import { agentSessionUsage } from '../../lambdas/core/costs/agent-session-usage.js';
import { runCommand, type CommandResult } from '../process/process.js';
import type { AgentFacts } from './facts.js';
import { killGrace, type Iteration } from './iteration.js';
import type { Session } from './prepare.js';
import type { LiveTranscriptWriter } from './live-transcript.js';
import type { Transcript } from './transcript.js';

export interface AgentRun {
  result: CommandResult;
  /** What the agent's final message reports (summary, learnings, patterns, COMPLETE). */
  report: AgentReport;
  facts: AgentFacts;
}

/**
 * What the agent runs with: a Ralph iteration's session, or one pass of an investigation,
 * which adds its own variables for scripted agents.
 */
export type AgentSession = Pick<Session, 'workspace' | 'plan' | 'prompt' | 'transcript'> & {
  env?: Readonly<Record<string, string>>;
};

export function agentCommand(it: Iteration): string {
  return it.run.config.agent.command ?? CLAUDE_CODE_COMMAND;
}

/** Runs the agent in the working copy; never rejects (runCommand describes failures). */
export async function runAgent(
  it: Iteration,
  session: AgentSession,
  signal: AbortSignal,
): Promise<AgentRun> {
  const { workspace, plan, transcript } = session;
  const config = it.run.config.agent;
  it.log('agent-started', { command: agentCommand(it) });
  // runCommand leaves the runner's credentials (AWS_*, ECS_*, GIT_TOKEN, TABLE_NAME,
  // BUCKET_NAME) out of the agent's environment (agent/process/environment.ts); what the run's
  // config sets is passed, and the model access the runner got for it. In the container the
  // agent runs as another user (agent/process/confined-spawner.ts).
  const modelAccess = (await it.deps.agentModelAccess?.()) ?? {};
  const endLive = await teeLiveTranscript(it, transcript);
  const result = await runCommand({
    spawner: it.deps.spawner,
    command: agentCommand(it),
    cwd: workspace.dir,
    stdin: session.prompt,
    env: {
      ...modelAccess,
      ...config.env,
      // For scripted agents, which would rather not parse the prompt.
      RALPH_RUN_ID: it.run.runId,
      RALPH_ITERATION: String(it.record.iteration),
      RALPH_STORY_ID: plan.story.id,
      ...(plan.subtask ? { RALPH_SUBTASK_ID: plan.subtask.id } : {}),
      RALPH_PRD_PATH: workspace.files.prd,
      RALPH_PROGRESS_PATH: workspace.files.progress,
      ...session.env,
    },
    timeoutMs: config.timeoutSeconds * 1000,
    signal,
    onOutput: (stream, text) => transcript.push(stream, text),
    ...killGrace(it.deps),
  });
  transcript.end();
  await endLive();
  it.log('agent-ended', {
    exitCode: result.exitCode,
    signal: result.signal,
    timedOut: result.timedOut,
    aborted: result.aborted,
    ms: Math.round(result.durationMs),
  });
  const report = parseAgentReport(result.stdout);
  const usage = agentSessionUsage(result.stdout);
  return {
    result,
    report,
    facts: {
      exitCode: result.exitCode,
      ms: result.durationMs,
      claimedComplete: report.claimedComplete,
      report: {
        ...(report.summary === undefined ? {} : { summary: report.summary }),
        learnings: report.learnings,
      },
      ...(usage ? { usage } : {}),
    },
  };
}

/**
 * Tees the transcript's lines into the iteration's live transcript, when the runner has
 * one; returns what ends it. A live transcript that cannot be opened is logged and left
 * out: the agent runs all the same, and transcript.jsonl keeps everything.
 */
async function teeLiveTranscript(
  it: Iteration,
  transcript: Transcript,
): Promise<() => Promise<void>> {
  const port = it.deps.liveTranscripts;
  if (!port) return async () => undefined;
  let writer: LiveTranscriptWriter;
  try {
    writer = await port.open(it.run.runId, it.record.iteration);
  } catch (error) {
    it.log('live-transcript-failed', { error: (error as Error).message });
    return async () => undefined;
  }
  const untee = transcript.tee((line) => writer.write(line));
  return async () => {
    untee();
    await writer.close();
  };
}
