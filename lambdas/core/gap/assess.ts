/**
 * The gap analysis of one iteration in one call: from both modes' scores and the
 * calibration history so far, the iteration's metrics (averages, gap, MAE, Spearman, QWK,
 * coverage, pattern counts), the history with them appended, and the three verdicts over
 * it: regression (did the pattern change make things worse), divergence (is the gap rising
 * or stuck) and convergence (does the cheap mode track the judge, stably). Pure.
 */
import { appendCalibrationHistory } from './calibration-history.js';
import { checkConvergence } from './convergence.js';
import { detectDivergence } from './divergence.js';
import { buildIterationMetrics, type IterationMetricsInput } from './iteration-metrics.js';
import { detectRegression } from './regression.js';
import type { EvaluationConfig } from '../schemas/evaluation-config.js';
import type {
  ConvergenceCheck,
  DivergenceCheck,
  RegressionCheck,
} from '../schemas/analysis/checks.js';
import type { IterationMetrics } from '../schemas/analysis/metrics.js';

/**
 * What one iteration scored: both modes' results, the pattern set that scored, this
 * iteration's lifecycle events, and (after a pattern change) the previous set's figures on
 * the same artefacts, which regression compares with.
 */
export type IterationScores = Omit<IterationMetricsInput, 'previous'>;

/** The sections the analysis reads. */
export type AssessConfig = Pick<
  EvaluationConfig,
  'convergence' | 'divergence' | 'regression' | 'judge' | 'coverage' | 'history'
>;

export interface GapAssessment {
  metrics: IterationMetrics;
  /** The calibration history with this iteration appended and trimmed. */
  history: IterationMetrics[];
  regression: RegressionCheck;
  divergence: DivergenceCheck;
  convergence: ConvergenceCheck;
}

/**
 * Assesses one iteration against the history before it.
 *
 * @example
 * const { metrics, history, convergence } = assess(
 *   { iteration: 5, timestamp, cheap, expensive, patternSet, patternEvents },
 *   previousReport.history,
 *   config,
 * );
 * metrics.gap; // 0.4
 */
export function assess(
  scores: IterationScores,
  calibrationHistory: readonly IterationMetrics[],
  config: AssessConfig,
): GapAssessment {
  // A retried iteration may already be in the history: compare with the one before it.
  const previous = calibrationHistory.findLast((entry) => entry.iteration < scores.iteration);
  const metrics = buildIterationMetrics({ ...scores, previous }, config);
  const regression = detectRegression(scores.regressionBaseline ?? previous, metrics, config);
  const history = appendCalibrationHistory(calibrationHistory, metrics, config);
  return {
    metrics,
    history,
    regression,
    divergence: detectDivergence(history, config),
    convergence: checkConvergence(history, config),
  };
}
