/**
 * A fix is judged against the gates as they were before it: what passed on the untouched
 * base must still pass with the fix. A gate failing before and after is the project's
 * state, not the fix's doing; advisory (non-blocking) gates are recorded, never counted,
 * as everywhere else in the runner.
 */
import type { GateResult } from '../schemas/gate-result.js';

/**
 * The blocking gates that passed before and do not pass after (a gate missing after,
 * because the run stopped, counts as not passing).
 *
 * @example
 * brokenGates([{ name: 'test', passed: true, … }], [{ name: 'test', passed: false, … }]) // ['test']
 */
export function brokenGates(before: readonly GateResult[], after: readonly GateResult[]): string[] {
  const passedAfter = new Set(after.filter((gate) => gate.passed).map((gate) => gate.name));
  return before
    .filter((gate) => gate.blocking && gate.passed && !passedAfter.has(gate.name))
    .map((gate) => gate.name);
}
