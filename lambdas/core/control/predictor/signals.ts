/**
 * The four signals of predictive stagnation (the design's section 3.6), one named rule
 * each, read from the run's trends. A signal that fires contributes its configured weight
 * and says what it saw:
 *
 * - repeated file touches: since the last commit, some file was left uncommitted by more
 *   than `repeatedFileTouches` iterations;
 * - stagnant test count: none of the latest `stagnantTestIterations` iterations reported
 *   more tests than the latest count reported before them (unknown before them: no signal);
 * - error repetition: the share of the latest `windowIterations` iterations whose error
 *   already occurred earlier in that window is above `errorRepetitionRate`;
 * - recent mode switch: the mode changed between two consecutive iterations of one task
 *   among the latest `recentModeSwitchIterations`.
 */
import { exceeds } from '../../shared/compare.js';
import type { LoopControlConfig } from '../../schemas/control-config.js';
import type { StagnationRisk } from '../../schemas/control-decisions.js';
import type { RunTrends } from '../facts/run-trends.js';
import type { Rule } from '../rules.js';

export type RiskConfig = Pick<LoopControlConfig, 'predictor'>;
export type Contribution = StagnationRisk['contributions'][number];
export type SignalRule = Rule<RunTrends, RiskConfig, Contribution>;

export const repeatedFileTouches: SignalRule = ({ uncommittedFiles }, { predictor }) => {
  const top = uncommittedFiles[0];
  if (!top || top.touches <= predictor.repeatedFileTouches) return undefined;
  return {
    signal: 'repeated_file_touches',
    weight: predictor.weights.repeatedFileTouches,
    detail: `${top.file} was changed in ${top.touches} iterations without a commit`,
  };
};

export const stagnantTestCount: SignalRule = ({ testCountTrend }, { predictor }) =>
  testCountTrend === undefined || testCountTrend.rose
    ? undefined
    : {
        signal: 'stagnant_test_count',
        weight: predictor.weights.stagnantTestCount,
        detail: `the test count has not risen above ${testCountTrend.baseline} for ${testCountTrend.iterations} iterations`,
      };

export const errorRepetition: SignalRule = ({ recentErrors }, { predictor }) => {
  const { iterations, repeats } = recentErrors;
  const top = recentErrors.tallies[0];
  if (iterations === 0 || top === undefined) return undefined;
  if (!exceeds(repeats / iterations, predictor.errorRepetitionRate)) return undefined;
  return {
    signal: 'error_repetition',
    weight: predictor.weights.errorRepetition,
    detail: `${repeats} of the last ${iterations} iterations repeated an earlier error, most often "${top.signature}" (${top.occurrences} times)`,
  };
};

export const recentModeSwitch: SignalRule = ({ recentModeSwitch: change }, { predictor }) =>
  change === undefined
    ? undefined
    : {
        signal: 'recent_mode_switch',
        weight: predictor.weights.recentModeSwitch,
        detail: `the mode switched from ${change.from} to ${change.to} in iteration ${change.iteration}`,
      };

/** In the design's order, which is the order of the contributions. */
export const SIGNAL_RULES: readonly SignalRule[] = [
  repeatedFileTouches,
  stagnantTestCount,
  errorRepetition,
  recentModeSwitch,
];
