/**
 * Regression: the pattern set changed since the previous iteration (a different
 * `patternSetVersion` scored) and, compared with that iteration, at least one of:
 * - the gap grew by more than `gapIncrease` (of the `regression` section) (by magnitude: `|gap|`, so a cheap
 *   mode over-scoring more counts too);
 * - the cheap average fell by more than `cheapDrop`;
 * - agreement fell: QWK or Spearman's rho dropped by more than `agreementDrop`
 *   (each compared only when defined in both iterations).
 * The verdict is then `rollback` to the previous iteration's version. When either
 * iteration's judge was unreliable, only the cheap drop is assessed (the other figures rest
 * on the judge). An unchanged pattern set is never a regression (judge drift or new
 * artefacts are divergence's business).
 */
import type { EvaluationConfig } from '../schemas/evaluation-config.js';
import { exceeds } from '../shared/compare.js';
import type { RegressionCheck, RegressionTrigger } from '../schemas/analysis/checks.js';
import type { IterationMetrics } from '../schemas/analysis/metrics.js';

export type RegressionConfig = Pick<EvaluationConfig, 'regression'>;

/** What regression compares of each iteration. */
export type RegressionFigures = Pick<
  IterationMetrics,
  'patternSetVersion' | 'gap' | 'cheapAvg' | 'qwk' | 'spearman' | 'judgeReliable'
>;

function rise(
  type: RegressionTrigger['type'],
  metric: RegressionTrigger['metric'],
  previous: number | null,
  current: number | null,
  threshold: number,
  direction: 1 | -1,
): RegressionTrigger[] {
  if (previous === null || current === null) return [];
  const delta = current - previous;
  return exceeds(direction * delta, threshold)
    ? [{ type, metric, previous, current, delta, threshold }]
    : [];
}

/**
 * Whether the latest pattern change made things worse, and where to roll back to.
 *
 * @example
 * detectRegression(previousMetrics, currentMetrics, config);
 * // { regression: true, verdict: 'rollback', rollbackToVersion: 3, triggers: [...], ... }
 */
export function detectRegression(
  previous: RegressionFigures | undefined,
  current: RegressionFigures,
  config: RegressionConfig,
): RegressionCheck {
  const base = {
    previousVersion: previous?.patternSetVersion ?? null,
    currentVersion: current.patternSetVersion,
    judgeComparable: previous !== undefined && previous.judgeReliable && current.judgeReliable,
  };
  const keep = () => ({
    regression: false,
    triggers: [],
    verdict: 'keep' as const,
    rollbackToVersion: null,
  });
  if (!previous)
    return { ...base, ...keep(), skipped: 'first_iteration', patternSetChanged: false };
  if (previous.patternSetVersion === current.patternSetVersion)
    return { ...base, ...keep(), skipped: 'pattern_set_unchanged', patternSetChanged: false };

  const magnitude = (gap: number | null): number | null => (gap === null ? null : Math.abs(gap));
  const {
    gapIncrease: gapUp,
    cheapDrop: cheapDown,
    agreementDrop: agreementDown,
  } = config.regression;
  const triggers: RegressionTrigger[] = [
    ...(base.judgeComparable
      ? rise('gap_increased', 'gap', magnitude(previous.gap), magnitude(current.gap), gapUp, 1)
      : []),
    ...rise('cheap_score_dropped', 'cheapAvg', previous.cheapAvg, current.cheapAvg, cheapDown, -1),
    ...(base.judgeComparable
      ? [
          ...rise('agreement_dropped', 'qwk', previous.qwk, current.qwk, agreementDown, -1),
          ...rise(
            'agreement_dropped',
            'spearman',
            previous.spearman,
            current.spearman,
            agreementDown,
            -1,
          ),
        ]
      : []),
  ];
  const regression = triggers.length > 0;
  return {
    ...base,
    skipped: null,
    patternSetChanged: true,
    regression,
    triggers,
    verdict: regression ? 'rollback' : 'keep',
    rollbackToVersion: regression ? previous.patternSetVersion : null,
  };
}
