/**
 * Loop control's iteration history for unit tests: entries parsed by the real schema, on
 * top of defaults each test file chooses (a stuck failure, or a pass); and a run's trends
 * for the tests of the rules that read them.
 */
import {
  IterationSummarySchema,
  type IterationSummary,
  type IterationSummaryInput,
} from '../../lambdas/core/schemas/control-history.js';
import type { RunTrends } from '../../lambdas/core/control/facts/run-trends.js';

export type SummaryOverrides = Partial<IterationSummaryInput>;

/**
 * @example
 * const { entry, history, repeat } = historyFactory({ outcome: 'passed', committed: true });
 * history(...repeat(5, { errorSignature: 'TS2322' })) // iterations 1..5
 */
export function historyFactory(defaults: SummaryOverrides = {}) {
  const entry = (overrides: SummaryOverrides = {}): IterationSummary =>
    IterationSummarySchema.parse({
      iteration: 1,
      taskId: 'US-001',
      mode: 'implementer',
      outcome: 'gates_failed',
      committed: false,
      meaningfulChange: false,
      endedAt: '2025-01-01T00:00:00Z',
      ...defaults,
      ...overrides,
    });
  /** One entry per argument, numbered from 1. */
  const history = (...entries: SummaryOverrides[]): IterationSummary[] =>
    entries.map((overrides, index) => entry({ iteration: index + 1, ...overrides }));
  const repeat = (times: number, overrides: SummaryOverrides = {}): SummaryOverrides[] =>
    Array.from({ length: times }, () => overrides);
  return { entry, history, repeat };
}

/** A healthy run's trends: what the supervisor's and the predictor's rule tests start from. */
export const HEALTHY_TRENDS: RunTrends = {
  currentTaskId: 'US-001',
  iterationsWithoutProgress: 0,
  iterationsWithoutMeaningfulChange: 0,
  iterationsSinceCommit: 0,
  testPassRate: 1,
  warningCount: 0,
  repeatedErrors: [],
  modeReturns: 0,
  passRateTrend: { best: 1, current: 1 },
  warningsTrend: { latest: 0, lowest: 0, highestSinceLowest: 0 },
  uncommittedFiles: [],
  recentErrors: { iterations: 1, repeats: 0, tallies: [], latest: undefined },
  testCountTrend: undefined,
  recentModeSwitch: undefined,
};

/**
 * @example
 * trendsWith({ testPassRate: 0.4 }) // a healthy run but for its pass rate
 */
export const trendsWith = (overrides: Partial<RunTrends>): RunTrends => ({
  ...HEALTHY_TRENDS,
  ...overrides,
});

/** The window's error tallies when one error occurred `times` times (none when 0). */
export const errorSeen = (signature: string, times: number): RunTrends['repeatedErrors'] =>
  times === 0 ? [] : [{ signature, occurrences: times, lastIteration: times }];
