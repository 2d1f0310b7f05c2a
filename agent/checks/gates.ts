/**
 * Quality gates: the project's own checks (typecheck, tests, lint), run by the runner after
 * the agent, never trusted to the agent. A failed blocking gate keeps the change from
 * counting.
 */
import type { Gate } from '../../lambdas/core/schemas/config.js';
import type { GateResult } from '../../lambdas/core/schemas/gate-result.js';
// Core's, so that an investigation's correction prompt describes the failures the same way.
export { describeGateFailures } from '../../lambdas/core/shared/gate-failures.js';
import { runCommand, TailBuffer } from '../process/process.js';
import type { Spawner } from '../process/spawner.js';

/** Lines of output kept on the gate result (the whole output goes to gates.json). */
export const OUTPUT_TAIL_LINES = 60;
const OUTPUT_TAIL_MAX_CHARS = 8_000;
/** Combined output kept per gate for gates.json. */
const FULL_OUTPUT_MAX_CHARS = 2 * 1024 * 1024;

export interface GateRun {
  result: GateResult;
  command: string;
  /** stdout and stderr interleaved as they arrived (the tail, when very long). */
  output: string;
}

export interface RunGatesOptions {
  spawner: Spawner;
  /** Ends the running gate and skips the rest. */
  signal?: AbortSignal;
  /**
   * Added to this process's environment, from which runCommand removes the runner's
   * credentials; `CI=true` is set unless given.
   */
  env?: Record<string, string | undefined>;
  killGraceMs?: number;
}

/**
 * Runs the gates one after another in `cwd`, each with its own timeout. Every gate runs
 * even after one fails, so the next agent sees all the failures at once; an abort stops
 * the sequence (the gate it interrupted is reported as failed).
 *
 * @example
 * const runs = await runGates(run.config.gates, repoDir, { spawner, signal });
 * const passed = runs.every(({ result }) => result.passed || !result.blocking);
 */
export async function runGates(
  gates: readonly Gate[],
  cwd: string,
  options: RunGatesOptions,
): Promise<GateRun[]> {
  const runs: GateRun[] = [];
  for (const gate of gates) {
    if (options.signal?.aborted) break;
    const output = new TailBuffer(FULL_OUTPUT_MAX_CHARS);
    const outcome = await runCommand({
      spawner: options.spawner,
      command: gate.command,
      cwd,
      env: { CI: 'true', ...options.env },
      timeoutMs: gate.timeoutSeconds * 1000,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.killGraceMs === undefined ? {} : { killGraceMs: options.killGraceMs }),
      onOutput: (_stream, text) => output.push(text),
    });
    const text = outcome.spawnError ? `${output.text()}${outcome.spawnError}\n` : output.text();
    runs.push({
      command: gate.command,
      output: text,
      result: {
        name: gate.name,
        blocking: gate.blocking,
        passed: outcome.exitCode === 0 && !outcome.timedOut && !outcome.aborted,
        exitCode: outcome.exitCode,
        timedOut: outcome.timedOut,
        durationMs: Math.round(outcome.durationMs),
        outputTail: tailLines(text, OUTPUT_TAIL_LINES, OUTPUT_TAIL_MAX_CHARS),
      },
    });
  }
  return runs;
}

/** Whether every blocking gate passed (advisory ones are only recorded). */
export function blockingGatesPassed(results: readonly GateResult[]): boolean {
  return results.every((result) => result.passed || !result.blocking);
}

/** The last `maxLines` lines of `text`, at most `maxChars` long. */
export function tailLines(text: string, maxLines: number, maxChars: number): string {
  const lines = text.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');
  const tail = lines.slice(-maxLines).join('\n');
  return tail.length > maxChars ? tail.slice(tail.length - maxChars) : tail;
}
