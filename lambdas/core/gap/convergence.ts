/**
 * Convergence: the cheap mode alone is good enough and tracks the judge, stably. Over the
 * last `stableIterations` iterations of the history (the `convergence` section's rules):
 * - `minIterations`: the latest iteration number is at least `minIterations`;
 * - `consecutiveIterations`: the window's iterations follow each other (no gap in the log);
 * - `sameArtefacts`: every iteration scored the same, non-empty set of artefact ids;
 * - `cheapThreshold`: every cheap average ≥ `cheapThreshold`;
 * - `gapThreshold`: every `|gap|` ≤ `gapThreshold` (by magnitude: a cheap mode that
 *   over-scores does not track the judge either);
 * - `judgeReliable`: no iteration's judge was unreliable (its gap proves nothing);
 * - `patternsStable`: active pattern count changes by less than `maxPatternCountChange`
 *   between consecutive iterations;
 * - `noDivergence`: `detectDivergence` over the whole history finds none;
 * - `noRegressions`: no iteration of the window detected a regression.
 * Converged when all hold; the proof carries the checks and the numbers behind them.
 */
import type { EvaluationConfig } from '../schemas/evaluation-config.js';
import { atLeast, atMost } from '../shared/compare.js';
import { detectDivergence, type DivergenceConfig } from './divergence.js';
import type {
  ConvergenceCheck,
  ConvergenceCheckName,
  ConvergenceChecks,
  ConvergenceEvidence,
} from '../schemas/analysis/checks.js';
import type { IterationMetrics } from '../schemas/analysis/metrics.js';

export type ConvergenceConfig = DivergenceConfig & Pick<EvaluationConfig, 'convergence'>;

const sameIds = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((id, index) => id === b[index]);

function evidenceOf(
  window: readonly IterationMetrics[],
  config: EvaluationConfig['convergence'],
): ConvergenceEvidence {
  return {
    iterationsChecked: window.map((entry) => entry.iteration),
    artefactIds: window.map((entry) => [...entry.artefactIds]),
    cheapScores: window.map((entry) => entry.cheapAvg),
    expensiveScores: window.map((entry) => entry.expensiveAvg),
    gaps: window.map((entry) => entry.gap),
    patternCounts: window.map((entry) => entry.patternCount),
    patternSetVersions: window.map((entry) => entry.patternSetVersion),
    agreement: window.map(({ iteration, mae, spearman, qwk, coverage }) => ({
      iteration,
      mae,
      spearman,
      qwk,
      coverage,
    })),
    thresholds: {
      cheapThreshold: config.cheapThreshold,
      gapThreshold: config.gapThreshold,
      stableIterations: config.stableIterations,
      maxPatternCountChange: config.maxPatternCountChange,
      minIterations: config.minIterations,
    },
  };
}

/**
 * Whether the run has converged, with what held and the numbers.
 *
 * @example
 * const check = checkConvergence(calibrationHistory, config);
 * if (check.converged) store(check.proof);
 */
export function checkConvergence(
  history: readonly IterationMetrics[],
  config: ConvergenceConfig,
): ConvergenceCheck {
  const rules = config.convergence;
  const window = history.slice(-rules.stableIterations);
  const latest = window.at(-1);
  if (!latest || window.length < rules.stableIterations)
    return {
      converged: false,
      failed: ['insufficient_iterations'],
      checks: null,
      evidence: null,
      proof: null,
    };

  const neighbours = window
    .slice(1)
    .map((entry, index) => [window[index] as IterationMetrics, entry] as const);
  const checks: ConvergenceChecks = {
    minIterations: latest.iteration >= rules.minIterations,
    consecutiveIterations: neighbours.every(
      ([before, after]) => after.iteration === before.iteration + 1,
    ),
    sameArtefacts:
      latest.artefactIds.length > 0 &&
      window.every((entry) => sameIds(entry.artefactIds, latest.artefactIds)),
    cheapThreshold: window.every(
      (entry) => entry.cheapAvg !== null && atLeast(entry.cheapAvg, rules.cheapThreshold),
    ),
    gapThreshold: window.every(
      (entry) => entry.gap !== null && atMost(Math.abs(entry.gap), rules.gapThreshold),
    ),
    judgeReliable: window.every((entry) => entry.judgeReliable),
    patternsStable: neighbours.every(
      ([before, after]) =>
        Math.abs(after.patternCount - before.patternCount) < rules.maxPatternCountChange,
    ),
    noDivergence: !detectDivergence(history, config).diverging,
    noRegressions: window.every((entry) => !entry.regressionDetected),
  };
  const failed = (Object.keys(checks) as ConvergenceCheckName[]).filter((name) => !checks[name]);
  const evidence = evidenceOf(window, rules);
  const converged = failed.length === 0;
  return {
    converged,
    failed,
    checks,
    evidence,
    proof: converged
      ? {
          iteration: latest.iteration,
          timestamp: latest.timestamp,
          patternSetVersion: latest.patternSetVersion,
          checks,
          evidence,
        }
      : null,
  };
}
