/**
 * The five stagnation patterns of the design's section 1.5, read from the history. All but
 * one look at the window (`stagnation.windowIterations` latest iterations); "no meaningful
 * changes" counts back over the whole history so its number is the true run length.
 */
import { atLeast } from '../../shared/compare.js';
import type { LoopControlConfig } from '../../schemas/control-config.js';
import {
  errorTallies,
  modeReturns,
  passRate,
  recent,
  trailingCount,
  type History,
} from '../history.js';
import type { StagnationPattern } from '../../schemas/control-decisions.js';

export type PatternConfig = Pick<LoopControlConfig, 'stagnation'>;

function repeatingErrors(window: History, threshold: number): StagnationPattern[] {
  return errorTallies(window)
    .filter((tally) => tally.occurrences >= threshold)
    .map((tally) => ({
      type: 'repeating_error',
      error: tally.signature,
      count: tally.occurrences,
    }));
}

function modeOscillation(window: History, threshold: number): StagnationPattern[] {
  const switches = modeReturns(window);
  return switches >= threshold ? [{ type: 'mode_oscillation', switches }] : [];
}

function testRegression(window: History, thresholdPercent: number): StagnationPattern[] {
  const rates = window.flatMap((entry) => {
    const rate = passRate(entry);
    return rate === undefined ? [] : [rate];
  });
  const current = rates.at(-1);
  if (current === undefined) return [];
  const best = Math.max(...rates);
  const dropPercent = (best - current) * 100;
  if (!atLeast(dropPercent, thresholdPercent)) return [];
  return [
    {
      type: 'test_regression',
      dropPercent: Math.round(dropPercent * 10) / 10,
      bestPassRate: best,
      currentPassRate: current,
    },
  ];
}

function accumulatingWarnings(window: History, threshold: number): StagnationPattern[] {
  const counts = window.flatMap((entry) => (entry.warnings === undefined ? [] : [entry.warnings]));
  const latest = counts.at(-1);
  if (latest === undefined) return [];
  const lowest = Math.min(...counts);
  const sinceLowest = counts.slice(counts.lastIndexOf(lowest));
  // A count already falling from its peak since the low point is being dealt with.
  const stillRising = latest >= Math.max(...sinceLowest);
  const rise = latest - lowest;
  return stillRising && rise >= threshold
    ? [{ type: 'accumulating_warnings', count: latest, rise }]
    : [];
}

function noMeaningfulChanges(history: History, threshold: number): StagnationPattern[] {
  const iterations = trailingCount(history, (entry) => !entry.meaningfulChange);
  return iterations >= threshold ? [{ type: 'no_meaningful_changes', iterations }] : [];
}

/**
 * Every stagnation pattern the history shows, in the design's order (repeating error, mode
 * oscillation, test regression, accumulating warnings, no meaningful changes); a repeating
 * error once per signature, most frequent first.
 *
 * @example
 * detectPatterns(history, DEFAULT_LOOP_CONTROL_CONFIG);
 * // [{ type: 'repeating_error', error: 'error TS2345: ...', count: 3 }]
 */
export function detectPatterns(history: History, config: PatternConfig): StagnationPattern[] {
  const settings = config.stagnation;
  const window = recent(history, settings.windowIterations);
  return [
    ...repeatingErrors(window, settings.repeatingErrorCount),
    ...modeOscillation(window, settings.modeOscillationSwitches),
    ...testRegression(window, settings.testRegressionDropPercent),
    ...accumulatingWarnings(window, settings.warningsRise),
    ...noMeaningfulChanges(history, settings.noMeaningfulChangeIterations),
  ];
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
