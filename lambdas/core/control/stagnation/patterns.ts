/**
 * The five stagnation patterns of the design's section 1.5, one named rule each, read
 * from the run's trends. All but one look at the stagnation window
 * (`stagnation.windowIterations` latest iterations); "no meaningful changes" counts back
 * over the whole history so its number is the true run length.
 */
import { atLeast } from '../../shared/compare.js';
import type { LoopControlConfig } from '../../schemas/control-config.js';
import type { StagnationPattern } from '../../schemas/control-decisions.js';
import type { RunTrends } from '../facts/run-trends.js';
import { everyRuling, type Rule } from '../rules.js';

export type PatternConfig = Pick<LoopControlConfig, 'stagnation'>;
/** A pattern rule: what it found (a repeating error once per signature), or undefined. */
export type PatternRule = Rule<RunTrends, PatternConfig, StagnationPattern[]>;

const found = (patterns: StagnationPattern[]): StagnationPattern[] | undefined =>
  patterns.length > 0 ? patterns : undefined;

/** One error signature `repeatingErrorCount` times or more in the window, most frequent first. */
export const repeatingErrors: PatternRule = ({ repeatedErrors }, { stagnation }) =>
  found(
    repeatedErrors
      .filter((tally) => tally.occurrences >= stagnation.repeatingErrorCount)
      .map((tally) => ({
        type: 'repeating_error',
        error: tally.signature,
        count: tally.occurrences,
      })),
  );

export const modeOscillation: PatternRule = ({ modeReturns }, { stagnation }) =>
  modeReturns >= stagnation.modeOscillationSwitches
    ? [{ type: 'mode_oscillation', switches: modeReturns }]
    : undefined;

/** The latest pass rate `testRegressionDropPercent` points or more below the window's best. */
export const testRegression: PatternRule = ({ passRateTrend }, { stagnation }) => {
  if (passRateTrend === undefined) return undefined;
  const { best, current } = passRateTrend;
  const dropPercent = (best - current) * 100;
  if (!atLeast(dropPercent, stagnation.testRegressionDropPercent)) return undefined;
  return [
    {
      type: 'test_regression',
      dropPercent: Math.round(dropPercent * 10) / 10,
      bestPassRate: best,
      currentPassRate: current,
    },
  ];
};

/** Warnings `warningsRise` above the window's lowest, and still the highest since it. */
export const accumulatingWarnings: PatternRule = ({ warningsTrend }, { stagnation }) => {
  if (warningsTrend === undefined) return undefined;
  const { latest, lowest, highestSinceLowest } = warningsTrend;
  // A count already falling from its peak since the low point is being dealt with.
  const stillRising = latest >= highestSinceLowest;
  const rise = latest - lowest;
  return stillRising && rise >= stagnation.warningsRise
    ? [{ type: 'accumulating_warnings', count: latest, rise }]
    : undefined;
};

export const noMeaningfulChanges: PatternRule = (trends, { stagnation }) => {
  const iterations = trends.iterationsWithoutMeaningfulChange;
  return iterations >= stagnation.noMeaningfulChangeIterations
    ? [{ type: 'no_meaningful_changes', iterations }]
    : undefined;
};

/** The design's order. */
export const PATTERN_RULES: readonly PatternRule[] = [
  repeatingErrors,
  modeOscillation,
  testRegression,
  accumulatingWarnings,
  noMeaningfulChanges,
];

/**
 * Every stagnation pattern the trends show, in the design's order (repeating error, mode
 * oscillation, test regression, accumulating warnings, no meaningful changes); a repeating
 * error once per signature, most frequent first.
 *
 * @example
 * detectPatterns(runTrends(history, config), config);
 * // [{ type: 'repeating_error', error: 'error TS2345: ...', count: 3 }]
 */
export function detectPatterns(trends: RunTrends, config: PatternConfig): StagnationPattern[] {
  return everyRuling(PATTERN_RULES, trends, config).flat();
}

const percent = (rate: number): string => `${Math.round(rate * 1000) / 10}%`;

/**
 * One pattern in words, with its numbers.
 *
 * @example
 * describePattern({ type: 'mode_oscillation', switches: 3 });
 * // 'the mode switched back and forth 3 times'
 */
export function describePattern(pattern: StagnationPattern): string {
  switch (pattern.type) {
    case 'repeating_error':
      return `the error "${pattern.error}" occurred ${pattern.count} times`;
    case 'mode_oscillation':
      return `the mode switched back and forth ${pattern.switches} times`;
    case 'test_regression':
      return `the test pass rate fell ${pattern.dropPercent} points, from ${percent(pattern.bestPassRate)} to ${percent(pattern.currentPassRate)}`;
    case 'accumulating_warnings':
      return `warnings rose by ${pattern.rise} to ${pattern.count}`;
    case 'no_meaningful_changes':
      return `${pattern.iterations} iterations in a row made no meaningful change`;
  }
}
