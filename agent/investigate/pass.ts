/**
 * One pass of an investigation: a fresh agent with its prompt, the analysis it wrote read
 * back, and its change staged against the base. An agent that fails, times out, is
 * stopped or leaves the fix branch ends the investigation with that verdict (the loop
 * retries it); one that wrote no usable analysis still makes a pass, with its `problem`.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { agentUsage } from '../../lambdas/core/investigate/agent-usage.js';
import { ANALYSIS_PATH, readAnalysis } from '../../lambdas/core/investigate/analysis-file.js';
import type { AnalysisPass } from '../../lambdas/core/schemas/investigation.js';
import {
  classifyAgentExit,
  joinDetail,
  outputTail,
  type Verdict,
} from '../runner/agent-outcome.js';
import type { StagedChange } from '../runner/after-agent.js';
import { agentCommand, runAgent } from '../runner/run-agent.js';
import { stopVerdict } from '../runner/stop.js';
import { readOptional } from '../working-copy/optional-files.js';
import { stageFix, type FixCopy } from './fix-copy.js';

export type PassRun =
  | { kind: 'ran'; pass: AnalysisPass; change: StagedChange; agentMs: number }
  | { kind: 'stopped'; verdict: Verdict; agentMs: number };

/**
 * Runs pass `number` with `prompt`.
 *
 * @example
 * const ran = await runPass(fix, { number: 1, kind: 'analysis', prompt });
 * if (ran.kind === 'ran') console.log(ran.pass.analysis?.confidence, ran.change.files);
 */
export async function runPass(
  fix: FixCopy,
  input: { number: number; kind: AnalysisPass['kind']; prompt: string },
): Promise<PassRun> {
  const { it, workspace, transcript, cancel } = fix;
  const analysisFile = join(workspace.dir, ANALYSIS_PATH);
  transcript.note(`runner: investigation pass ${input.number} (${input.kind})`);
  // Each analysis pass writes its own; the correction updates the one it was given.
  if (input.kind === 'analysis') await rm(analysisFile, { force: true });
  fix.prompts.push(input.prompt);
  const agent = await runAgent(
    it,
    {
      workspace,
      plan: fix.plan,
      prompt: input.prompt,
      transcript,
      env: {
        RALPH_ANALYSIS_PATH: analysisFile,
        RALPH_INVESTIGATION_PASS: String(input.number),
        RALPH_INVESTIGATION_KIND: input.kind,
      },
    },
    cancel.signal,
  );
  const { result } = agent;
  const agentMs = result.durationMs;
  if (result.aborted)
    return { kind: 'stopped', verdict: stopVerdict(cancel, 'while the agent ran'), agentMs };
  const failure = classifyAgentExit(result, agentCommand(it), it.run.config.agent.timeoutSeconds);
  if (failure) return { kind: 'stopped', verdict: failure, agentMs };
  const change = await stageFix(fix);
  if ('problem' in change)
    return {
      kind: 'stopped',
      verdict: {
        outcome: 'agent_failed',
        cause: change.problem,
        failureDetail: joinDetail(change.problem, [['agent stdout', outputTail(result.stdout)]]),
      },
      agentMs,
    };
  const read = readAnalysis(await readOptional(analysisFile));
  if ('problem' in read) transcript.note(`runner: ${read.problem}`);
  const pass: AnalysisPass = {
    pass: input.number,
    kind: input.kind,
    ...read,
    changedFiles: change.files,
    agentExitCode: result.exitCode,
    durationMs: Math.round(agentMs),
    ...agentUsage(result.stdout),
  };
  it.log('investigation-pass', {
    pass: pass.pass,
    kind: pass.kind,
    confidence: pass.analysis?.confidence,
    changedFiles: pass.changedFiles.length,
  });
  return { kind: 'ran', pass, change, agentMs };
}
