/**
 * A run's trends: what loop control's decisions read of the history, computed once per
 * decision point from the iterations' facts (`iteration-facts.ts`) and then shared by the
 * stagnation level, the supervisor's verdict, the stagnation risk and the preventive
 * action, which before each counted repeated errors and mode switches on their own.
 *
 * Three spans: the whole history (run lengths counted back from the newest iteration,
 * latest reported values), the stagnation window (`stagnation.windowIterations` latest
 * iterations: what the supervisor and the stagnation patterns look at) and the
 * predictor's spans (`predictor.*`).
 */
import type { LoopControlConfig } from '../../schemas/control-config.js';
import type { AgentMode } from '../../schemas/control-history.js';
import {
  errorTallies,
  latest,
  madeProgress,
  modeReturns,
  passRate,
  recent,
  trailingCount,
  uncommittedTouches,
  type ErrorTally,
  type FileTouches,
  type History,
} from './history.js';

export type TrendsConfig = Pick<LoopControlConfig, 'stagnation' | 'predictor'>;

export interface RunTrends {
  /** The newest iteration's task, when there is one. */
  currentTaskId: string | undefined;

  // Run lengths, counted back over the whole history.
  /** Consecutive latest iterations without progress (neither a commit nor a meaningful change). */
  iterationsWithoutProgress: number;
  /** Consecutive latest iterations without a meaningful change. */
  iterationsWithoutMeaningfulChange: number;
  /** Consecutive latest iterations without a counted commit. */
  iterationsSinceCommit: number;

  // The latest reported values.
  /** The latest reported pass rate (0–1); `null` before any iteration reported tests. */
  testPassRate: number | null;
  /** The latest reported warning count; `null` before any iteration reported one. */
  warningCount: number | null;

  // The stagnation window.
  /** Each error signature in the window with its occurrences, most frequent first. */
  repeatedErrors: ErrorTally[];
  /** Back-and-forth mode switches in the window (see `modeReturns`). */
  modeReturns: number;
  /** The window's best and latest reported pass rates, when any iteration reported one. */
  passRateTrend: { best: number; current: number } | undefined;
  /** The window's reported warning counts: the latest, the lowest, the highest since that. */
  warningsTrend: { latest: number; lowest: number; highestSinceLowest: number } | undefined;

  // The predictor's spans.
  /** Files left uncommitted since the last commit, most touched first. */
  uncommittedFiles: FileTouches[];
  /** The latest `predictor.windowIterations` iterations' errors. */
  recentErrors: {
    iterations: number;
    /** Iterations whose error already occurred earlier in this span. */
    repeats: number;
    /** Most frequent first. */
    tallies: ErrorTally[];
    /** The newest error in the span. */
    latest: string | undefined;
  };
  /**
   * The latest test count reported before the latest `predictor.stagnantTestIterations`
   * iterations, and whether any of those reported more; undefined while the history is
   * shorter or nothing reported a count before them.
   */
  testCountTrend: { baseline: number; iterations: number; rose: boolean } | undefined;
  /** The newest change of mode within one task among the latest `recentModeSwitchIterations`. */
  recentModeSwitch: { from: AgentMode; to: AgentMode; iteration: number } | undefined;
}

/**
 * The trends of a history (oldest first).
 *
 * @example
 * const trends = runTrends(state.history, config);
 * supervisorVerdict(trends, config); stagnationLevel(trends, config); stagnationRisk(trends, config);
 */
export function runTrends(history: History, config: TrendsConfig): RunTrends {
  const window = recent(history, config.stagnation.windowIterations);
  return {
    currentTaskId: history.at(-1)?.taskId,
    iterationsWithoutProgress: trailingCount(history, (entry) => !madeProgress(entry)),
    iterationsWithoutMeaningfulChange: trailingCount(history, (entry) => !entry.meaningfulChange),
    iterationsSinceCommit: trailingCount(history, (entry) => !entry.committed),
    testPassRate: latest(history, passRate),
    warningCount: latest(history, (entry) => entry.warnings),
    repeatedErrors: errorTallies(window),
    modeReturns: modeReturns(window),
    passRateTrend: passRateTrend(window),
    warningsTrend: warningsTrend(window),
    uncommittedFiles: uncommittedTouches(history),
    recentErrors: recentErrors(recent(history, config.predictor.windowIterations)),
    testCountTrend: testCountTrend(history, config.predictor.stagnantTestIterations),
    recentModeSwitch: recentModeSwitch(
      recent(history, config.predictor.recentModeSwitchIterations),
    ),
  };
}

function passRateTrend(window: History): RunTrends['passRateTrend'] {
  const rates = window.flatMap((entry) => {
    const rate = passRate(entry);
    return rate === undefined ? [] : [rate];
  });
  const current = rates.at(-1);
  return current === undefined ? undefined : { best: Math.max(...rates), current };
}

function warningsTrend(window: History): RunTrends['warningsTrend'] {
  const counts = window.flatMap((entry) => (entry.warnings === undefined ? [] : [entry.warnings]));
  const last = counts.at(-1);
  if (last === undefined) return undefined;
  const lowest = Math.min(...counts);
  const highestSinceLowest = Math.max(...counts.slice(counts.lastIndexOf(lowest)));
  return { latest: last, lowest, highestSinceLowest };
}

function recentErrors(span: History): RunTrends['recentErrors'] {
  const seen = new Set<string>();
  let repeats = 0;
  for (const { errorSignature } of span) {
    if (errorSignature === undefined) continue;
    if (seen.has(errorSignature)) repeats += 1;
    seen.add(errorSignature);
  }
  return {
    iterations: span.length,
    repeats,
    tallies: errorTallies(span),
    latest: span.findLast((entry) => entry.errorSignature !== undefined)?.errorSignature,
  };
}

function testCountTrend(history: History, iterations: number): RunTrends['testCountTrend'] {
  const before = history.slice(0, Math.max(0, history.length - iterations));
  if (history.length - before.length < iterations) return undefined;
  const baseline = before.findLast((entry) => entry.testsTotal !== undefined)?.testsTotal;
  if (baseline === undefined) return undefined;
  const rose = recent(history, iterations).some(
    (entry) => entry.testsTotal !== undefined && entry.testsTotal > baseline,
  );
  return { baseline, iterations, rose };
}

function recentModeSwitch(span: History): RunTrends['recentModeSwitch'] {
  for (let index = span.length - 1; index > 0; index -= 1) {
    const [previous, current] = [span[index - 1], span[index]];
    if (previous && current && previous.taskId === current.taskId && previous.mode !== current.mode)
      return { from: previous.mode, to: current.mode, iteration: current.iteration };
  }
  return undefined;
}
