/**
 * The supervisor's rules: the design's section 1.4 decision tree, one named rule per
 * branch, in its order (the first that holds wins):
 *
 * 1. test pass rate < abortBelowPassRate → ABORT (`lowPassRate`)
 * 2. warnings > pauseAboveWarnings → PAUSE (`tooManyWarnings`)
 * 3. mode switches > abortAboveModeSwitches → ABORT (`modeOscillation`)
 * 4. repeats of one error ≥ resetAtRepeatingError → RESET (`repeatingError`)
 * 5. iterations since a commit > debugAfterIterationsWithoutCommit → SWITCH_MODE to the
 *    debugger (`noCommit`)
 * 6. else PROCEED (`healthy`)
 *
 * An unknown pass rate (no iteration reported tests yet, or the project has none) never
 * aborts: rule 1 guards against a loop that is breaking the suite, and with no suite
 * reported there is nothing it can be breaking. Likewise an unknown warning count never
 * pauses. Mode switches and repeated errors are those of the stagnation window.
 */
import { fallsBelow } from '../../shared/compare.js';
import type { LoopControlConfig } from '../../schemas/control-config.js';
import type { SupervisorVerdict } from '../../schemas/control-decisions.js';
import type { RunTrends } from '../facts/run-trends.js';
import type { Rule } from '../rules.js';

export type SupervisorConfig = Pick<LoopControlConfig, 'supervisor'>;
export type VerdictRule = Rule<RunTrends, SupervisorConfig, SupervisorVerdict>;

const percent = (rate: number): string => `${Math.round(rate * 1000) / 10}%`;

export const lowPassRate: VerdictRule = ({ testPassRate }, { supervisor }) =>
  testPassRate !== null && fallsBelow(testPassRate, supervisor.abortBelowPassRate)
    ? {
        verdict: 'ABORT',
        rule: 'low_pass_rate',
        reason: `test pass rate ${percent(testPassRate)} is below ${percent(supervisor.abortBelowPassRate)}`,
      }
    : undefined;

export const tooManyWarnings: VerdictRule = ({ warningCount }, { supervisor }) =>
  warningCount !== null && warningCount > supervisor.pauseAboveWarnings
    ? {
        verdict: 'PAUSE',
        rule: 'too_many_warnings',
        reason: `${warningCount} warnings, more than ${supervisor.pauseAboveWarnings}: review before going on`,
      }
    : undefined;

export const modeOscillation: VerdictRule = ({ modeReturns }, { supervisor }) =>
  modeReturns > supervisor.abortAboveModeSwitches
    ? {
        verdict: 'ABORT',
        rule: 'mode_oscillation',
        reason: `the mode switched back and forth ${modeReturns} times, more than ${supervisor.abortAboveModeSwitches}`,
      }
    : undefined;

/**
 * Repeats of the window's most frequent error: its occurrences after the first, so 2
 * means the same error three times ("same error 3x", as the stagnation pattern counts).
 */
export const repeatingError: VerdictRule = ({ repeatedErrors }, { supervisor }) => {
  const top = repeatedErrors[0];
  const repeats = top === undefined ? 0 : top.occurrences - 1;
  if (top === undefined || repeats < supervisor.resetAtRepeatingError) return undefined;
  return {
    verdict: 'RESET',
    rule: 'repeating_error',
    reason: `the same error repeated ${repeats} times (limit ${supervisor.resetAtRepeatingError}): "${top.signature}"`,
  };
};

export const noCommit: VerdictRule = ({ iterationsSinceCommit }, { supervisor }) =>
  iterationsSinceCommit > supervisor.debugAfterIterationsWithoutCommit
    ? {
        verdict: 'SWITCH_MODE',
        rule: 'no_commit',
        switchTo: 'debugger',
        reason: `${iterationsSinceCommit} iterations without a commit, more than ${supervisor.debugAfterIterationsWithoutCommit}: switching to the debugger`,
      }
    : undefined;

/** The tree in its order. */
export const SUPERVISOR_RULES: readonly VerdictRule[] = [
  lowPassRate,
  tooManyWarnings,
  modeOscillation,
  repeatingError,
  noCommit,
];

/** When no rule holds: proceed, saying what was seen. */
export function healthy(trends: RunTrends): SupervisorVerdict {
  const { testPassRate, warningCount } = trends;
  const known = [
    testPassRate === null ? 'no test results yet' : `test pass rate ${percent(testPassRate)}`,
    warningCount === null ? 'no warning count yet' : `${warningCount} warnings`,
  ];
  return {
    verdict: 'PROCEED',
    rule: 'healthy',
    reason: `healthy: ${known.join(', ')}, ${trends.iterationsSinceCommit} iterations since a commit, ${trends.modeReturns} back-and-forth mode switches, ${trends.iterationsWithoutProgress} iterations without progress`,
  };
}
