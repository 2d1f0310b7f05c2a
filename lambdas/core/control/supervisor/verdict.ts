/**
 * The supervisor's verdict: the design's section 1.4 decision tree, in its order; the
 * first rule that holds wins.
 *
 * 1. test pass rate < abortBelowPassRate → ABORT
 * 2. warnings > pauseAboveWarnings → PAUSE
 * 3. mode switches > abortAboveModeSwitches → ABORT
 * 4. repeats of one error ≥ resetAtRepeatingError → RESET
 * 5. iterations since a commit > debugAfterIterationsWithoutCommit → SWITCH_MODE (debugger)
 * 6. else PROCEED
 *
 * An unknown pass rate (no iteration reported tests yet, or the project has none) never
 * aborts: rule 1 guards against a loop that is breaking the suite, and with no suite
 * reported there is nothing it can be breaking. Likewise an unknown warning count never
 * pauses.
 */
import { fallsBelow } from '../../shared/compare.js';
import type { LoopControlConfig } from '../../schemas/control-config.js';
import type { HealthMetrics } from './health.js';
import type { SupervisorVerdict } from '../../schemas/control-decisions.js';

export type SupervisorConfig = Pick<LoopControlConfig, 'supervisor'>;

const percent = (rate: number): string => `${Math.round(rate * 1000) / 10}%`;

/**
 * What the supervisor rules, from the run's health.
 *
 * @example
 * supervisorVerdict({ ...metrics, testPassRate: 0.4 }, DEFAULT_LOOP_CONTROL_CONFIG);
 * // { verdict: 'ABORT', rule: 'low_pass_rate', reason: 'test pass rate 40% is below 50%' }
 */
export function supervisorVerdict(
  metrics: HealthMetrics,
  config: SupervisorConfig,
): SupervisorVerdict {
  const limits = config.supervisor;
  const { testPassRate, warningCount, modeSwitches, repeatingErrorCount } = metrics;
  const { iterationsSinceCommit } = metrics;

  if (testPassRate !== null && fallsBelow(testPassRate, limits.abortBelowPassRate))
    return {
      verdict: 'ABORT',
      rule: 'low_pass_rate',
      reason: `test pass rate ${percent(testPassRate)} is below ${percent(limits.abortBelowPassRate)}`,
    };
  if (warningCount !== null && warningCount > limits.pauseAboveWarnings)
    return {
      verdict: 'PAUSE',
      rule: 'too_many_warnings',
      reason: `${warningCount} warnings, more than ${limits.pauseAboveWarnings}: review before going on`,
    };
  if (modeSwitches > limits.abortAboveModeSwitches)
    return {
      verdict: 'ABORT',
      rule: 'mode_oscillation',
      reason: `the mode switched back and forth ${modeSwitches} times, more than ${limits.abortAboveModeSwitches}`,
    };
  if (repeatingErrorCount >= limits.resetAtRepeatingError)
    return {
      verdict: 'RESET',
      rule: 'repeating_error',
      reason:
        `the same error repeated ${repeatingErrorCount} times (limit ${limits.resetAtRepeatingError})` +
        (metrics.repeatingError === undefined ? '' : `: "${metrics.repeatingError}"`),
    };
  if (iterationsSinceCommit > limits.debugAfterIterationsWithoutCommit)
    return {
      verdict: 'SWITCH_MODE',
      rule: 'no_commit',
      switchTo: 'debugger',
      reason: `${iterationsSinceCommit} iterations without a commit, more than ${limits.debugAfterIterationsWithoutCommit}: switching to the debugger`,
    };
  const known = [
    testPassRate === null ? 'no test results yet' : `test pass rate ${percent(testPassRate)}`,
    warningCount === null ? 'no warning count yet' : `${warningCount} warnings`,
  ];
  return {
    verdict: 'PROCEED',
    rule: 'healthy',
    reason: `healthy: ${known.join(', ')}, ${iterationsSinceCommit} iterations since a commit, ${modeSwitches} back-and-forth mode switches, ${metrics.stagnationCount} iterations without progress`,
  };
}
