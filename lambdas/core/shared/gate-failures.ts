/** How failed gates are described to the next agent: the Ralph loop's and an investigation's. */
import type { GateResult } from '../schemas/gate-result.js';

/**
 * What the next agent reads about the failed blocking gates: a line per gate with its
 * exit, then its output tail.
 */
export function describeGateFailures(results: readonly GateResult[]): string {
  return results
    .filter((result) => result.blocking && !result.passed)
    .map((result) => {
      const how = result.timedOut
        ? `timed out after ${Math.round(result.durationMs / 1000)}s`
        : result.exitCode === null
          ? 'killed'
          : `exit ${result.exitCode}`;
      const tail = result.outputTail.trimEnd();
      return `gate ${result.name} failed (${how}):${tail === '' ? ' (no output)' : `\n${tail}`}`;
    })
    .join('\n\n');
}
