/**
 * Convergence: the cheap mode alone is good enough and tracks the judge, stably. Over the
 * last `stableIterations` iterations of the history (the `convergence` section's rules):
 * - `minIterations`: the latest iteration number is at least `minIterations`;
 * - `consecutiveIterations`: the window's iterations follow each other (no gap in the log);
 * - `sameArtefacts`: every iteration scored the same, non-empty set of artefact ids;
 * - `cheapThreshold`: every cheap average ≥ `cheapThreshold`;
 * - `gapThreshold`: every `|gap|` ≤ `gapThreshold` (by magnitude: a cheap mode that
 *   over-scores does not track the judge either);
 * - `minSpearman`, `minQwk`: every Spearman's rho ≥ `minSpearman` and every QWK ≥ `minQwk`
 *   (a closed mean gap says nothing of whether the cheap mode ranks the artefacts as the
 *   judge does); both fail, saying so, with fewer than `minAgreementArtefacts` artefacts or
 *   a figure that could not be measured;
 * - `judgeReliable`: no iteration's judge was unreliable (its gap proves nothing);
 * - `patternsStable`: active pattern count changes by less than `maxPatternCountChange`
 *   between consecutive iterations;
 * - `noDivergence`: `detectDivergence` over the whole history finds none;
 * - `noRegressions`: no iteration of the window detected a regression.
 * Converged when all hold; the proof carries the checks, each one's reason (the rule and the
 * number that decided it, see convergence-rules.ts) and the numbers behind them.
 */
import type { EvaluationConfig } from '../schemas/evaluation-config.js';
import { detectDivergence, type DivergenceConfig } from './divergence.js';
import { convergenceRules } from './convergence-rules.js';
import type {
  ConvergenceCheck,
  ConvergenceCheckName,
  ConvergenceChecks,
  ConvergenceEvidence,
  ConvergenceReasons,
} from '../schemas/analysis/checks.js';
import type { IterationMetrics } from '../schemas/analysis/metrics.js';

export type ConvergenceConfig = DivergenceConfig & Pick<EvaluationConfig, 'convergence'>;

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
      minSpearman: config.minSpearman,
      minQwk: config.minQwk,
      minAgreementArtefacts: config.minAgreementArtefacts,
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
  const [first, ...rest] = window;
  const latest = window.at(-1);
  if (!first || !latest || window.length < rules.stableIterations)
    return {
      converged: false,
      failed: ['insufficient_iterations'],
      checks: null,
      reasons: {},
      evidence: null,
      proof: null,
    };

  const outcomes = convergenceRules(
    { window: [first, ...rest], divergence: detectDivergence(history, config) },
    rules,
  );
  const names = Object.keys(outcomes) as ConvergenceCheckName[];
  const checks = Object.fromEntries(
    names.map((name) => [name, outcomes[name].held]),
  ) as Required<ConvergenceChecks>;
  const reasons: ConvergenceReasons = Object.fromEntries(
    names.map((name) => [name, { rule: outcomes[name].rule, reason: outcomes[name].reason }]),
  );
  const failed = names.filter((name) => !checks[name]);
  const evidence = evidenceOf(window, rules);
  const converged = failed.length === 0;
  return {
    converged,
    failed,
    checks,
    reasons,
    evidence,
    proof: converged
      ? {
          iteration: latest.iteration,
          timestamp: latest.timestamp,
          patternSetVersion: latest.patternSetVersion,
          checks,
          reasons,
          evidence,
        }
      : null,
  };
}
