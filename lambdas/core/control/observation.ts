/**
 * What the runner saw of one iteration, beyond its outcome: the size of the change, the
 * counts its gates printed, and what the agent did (design §3.1 and §3.2). The runner
 * computes it where the data is (the patch, the full gate output, the transcript) and
 * reports it in result.json; the loop's decisions read it from the iteration record.
 */
import { diffStats } from '../shared/diff-stats.js';
import { readToolOutput } from '../tool-output/read-output.js';
import { analyseAgentOutput } from './transcript/analyse-output.js';
import type { RunnerObservation } from '../schemas/observation.js';
import { AgentActivitySchema } from '../schemas/observation.js';

/** Long lists are cut: the record stays small, the transcript on S3 has everything. */
const LIST_LIMIT = 50;

export interface ObservedGate {
  name: string;
  command: string;
  passed: boolean;
  timedOut: boolean;
  output: string;
}

/**
 * @example
 * observeIteration({ patch, gates: [{ name: 'test', command: 'npm test', passed: true, timedOut: false, output }], transcript })
 * // { linesAdded: 12, linesRemoved: 3, gateCounts: { test: { tests: { passed: 8, ... } } }, agent: {...} }
 */
export function observeIteration(input: {
  patch: string;
  gates: readonly ObservedGate[];
  /** The agent's output (stream-json or plain), when the agent ran. */
  transcript?: string;
  /** The working copy, so that the agent's absolute paths read as repository paths. */
  cwd?: string;
}): RunnerObservation {
  const change = diffStats(input.patch);
  const gateCounts = Object.fromEntries(
    input.gates.map((gate) => [
      gate.name,
      // An empty output of a diagnostic tool that passed means clean, not unknown.
      readToolOutput(gate.output, {
        command: gate.command,
        succeeded: gate.passed && !gate.timedOut,
      }).counts,
    ]),
  );
  const activity =
    input.transcript === undefined
      ? undefined
      : analyseAgentOutput(input.transcript, input.cwd === undefined ? {} : { cwd: input.cwd });
  return {
    linesAdded: change.addedLines,
    linesRemoved: change.removedLines,
    gateCounts,
    ...(activity
      ? {
          agent: {
            ...AgentActivitySchema.parse(activity),
            filesRead: activity.filesRead.slice(0, LIST_LIMIT),
            filesWritten: activity.filesWritten.slice(0, LIST_LIMIT),
            commandsRun: activity.commandsRun.slice(0, LIST_LIMIT),
          },
        }
      : {}),
  };
}
