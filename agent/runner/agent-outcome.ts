/**
 * How an agent process ended, in the iteration's terms: which outcome, a one-line cause
 * for the run record, and the detail (the ends of stderr and stdout) for the next agent.
 */
import type { IterationOutcome } from '../../lambdas/core/schemas/outcome.js';
import { tailLines } from '../checks/gates.js';
import type { CommandResult } from '../process/process.js';

/** What an iteration ended with, before durations and artefacts are added. */
export interface Verdict {
  outcome: IterationOutcome;
  cause?: string;
  failureDetail?: string;
  commit?: string;
  evidenceRef?: string;
}

/** sh's exit status for a command it cannot find. */
const COMMAND_NOT_FOUND = 127;
const TAIL_LINES = 40;
const TAIL_MAX_CHARS = 6_000;
/** stream-json lines can be huge; the next agent needs their start, not all of them. */
const LINE_MAX_CHARS = 400;

/**
 * The verdict on an agent that did not exit 0 on its own, or undefined when it did. An
 * abort is not judged here: the caller knows whether it was a cancel or an interruption.
 *
 * @example
 * const failure = classifyAgentExit(result, 'claude -p', 1800);
 * if (failure) return keepEvidenceAndReport(failure);
 */
export function classifyAgentExit(
  result: CommandResult,
  command: string,
  timeoutSeconds: number,
): Verdict | undefined {
  const detail = (headline: string) =>
    joinDetail(headline, [
      ['agent stderr', outputTail(result.stderr)],
      ['agent stdout', outputTail(result.stdout)],
    ]);
  let failure: { outcome: IterationOutcome; cause: string } | undefined;
  if (result.timedOut)
    failure = { outcome: 'agent_timeout', cause: `the agent timed out after ${timeoutSeconds}s` };
  else if (result.spawnError !== undefined)
    failure = {
      outcome: 'agent_crashed',
      cause: `the agent could not start: ${result.spawnError.split('\n')[0] ?? ''}`,
    };
  else if (result.signal !== null)
    failure = { outcome: 'agent_crashed', cause: `the agent was killed by ${result.signal}` };
  else if (result.exitCode === COMMAND_NOT_FOUND)
    failure = {
      outcome: 'agent_crashed',
      cause: `the agent command was not found (exit 127): ${command.trim().split(/\s+/)[0] ?? command}`,
    };
  else if (result.exitCode !== 0)
    failure = { outcome: 'agent_failed', cause: `the agent exited with code ${result.exitCode}` };
  if (!failure) return undefined;
  return { ...failure, failureDetail: detail(result.spawnError ?? failure.cause) };
}

/** The readable end of some output, long lines cut. */
export function outputTail(output: string): string {
  const lines = output
    .split(/\r?\n/)
    .map((line) => (line.length > LINE_MAX_CHARS ? `${line.slice(0, LINE_MAX_CHARS)}…` : line));
  return tailLines(lines.join('\n'), TAIL_LINES, TAIL_MAX_CHARS);
}

/** A headline, then each non-empty labelled part under a `--- label ---` line. */
export function joinDetail(headline: string, parts: readonly [string, string][]): string {
  const out = [headline];
  for (const [label, body] of parts)
    if (body.trim() !== '') out.push(`--- ${label} (last lines) ---\n${body.trim()}`);
  return out.join('\n');
}
