/**
 * Divergence: the run is failing to converge.
 *
 * Only iterations with a gap and a reliable judge are used, and gaps are compared by
 * magnitude (`|gap|`: a cheap mode over-scoring by more and more diverges too).
 * - `gap_increasing`: each of the last `risingGapIterations` gaps is larger than the one
 *   before (3 → two rises in a row, as the document's `g0 < g1 < g2`), and the latest is
 *   above `gapThreshold`: a gap that moves within its threshold still tracks the judge
 *   (without the bound, 0.08 → 0.11 → 0.28 rolled back a converged run's patterns).
 * - `gap_plateau`: the last `plateauIterations` gaps lie within less than `plateauRange` and
 *   the latest is still above `gapThreshold`. The document's rule has no such bound, which
 *   would call a gap that holds steady at a good value a plateau and so block convergence
 *   for ever; a plateau is a gap stuck where it should not be.
 * Windows are at least two iterations long. Rising is checked first (document order).
 *
 * Diagnosis of a rising gap, comparing the latest usable iteration with the one before
 * (the document's `analyze_gap_increase`, generalised to the gap's sign). In the document's
 * order `pattern_explosion` can never answer: a rising gap always has the cheap average
 * falling or the judge rising, so one of its first two checks holds. Explosion is therefore
 * read as the cause of a cheap degradation:
 * 1. the cheap average moved away from the judge (down when it under-scores, up when it
 *    over-scores): `pattern_explosion` if active patterns grew by more than
 *    `patternExplosionFactor`, else `cheap_mode_degraded`;
 * 2. the judge moved away: `expensive_mode_shifted`;
 * 3. otherwise (figures that do not add up, e.g. rounded): `pattern_explosion` if it holds,
 *    else `unknown`.
 * `patternExplosion` is also reported on its own, every iteration, from the last two entries.
 */
import type { EvaluationConfig } from '../schemas/evaluation-config.js';
import { exceeds, fallsBelow } from '../shared/compare.js';
import type { DivergenceCheck, DivergenceDiagnosis } from '../schemas/analysis/checks.js';
import type { IterationMetrics } from '../schemas/analysis/metrics.js';

/** The `divergence` rules, and convergence's `gapThreshold` (a gap within it is no divergence). */
export type DivergenceConfig = Pick<EvaluationConfig, 'divergence' | 'convergence'>;

type Entry = Pick<
  IterationMetrics,
  | 'iteration'
  | 'gap'
  | 'cheapAvg'
  | 'expensiveAvg'
  | 'patternCount'
  | 'patternSetVersion'
  | 'judgeReliable'
>;

/**
 * Whether active patterns grew by more than `factor` from `previous` to `latest` (never
 * from an empty set: any first pattern would be an explosion).
 *
 * @example
 * isPatternExplosion(100, 151, 1.5); // true
 */
export function isPatternExplosion(previous: number, latest: number, factor: number): boolean {
  return previous > 0 && exceeds(latest, previous * factor);
}

function isRising(gaps: readonly number[]): boolean {
  return gaps.every((gap, index) => index === 0 || exceeds(gap, gaps[index - 1] as number));
}

function diagnose(previous: Entry, latest: Entry, factor: number): DivergenceDiagnosis {
  const away = (latest.gap as number) >= 0 ? 1 : -1;
  const cheapMove = (latest.cheapAvg as number) - (previous.cheapAvg as number);
  const judgeMove = (latest.expensiveAvg as number) - (previous.expensiveAvg as number);
  const exploded = isPatternExplosion(previous.patternCount, latest.patternCount, factor);
  if (exceeds(-away * cheapMove, 0)) return exploded ? 'pattern_explosion' : 'cheap_mode_degraded';
  if (exceeds(away * judgeMove, 0)) return 'expensive_mode_shifted';
  return exploded ? 'pattern_explosion' : 'unknown';
}

/**
 * Whether the gap is rising or stuck, and why it rises.
 *
 * @example
 * detectDivergence(history, config);
 * // { diverging: true, reason: 'gap_increasing', diagnosis: 'cheap_mode_degraded', ... }
 */
export function detectDivergence(
  history: readonly Entry[],
  config: DivergenceConfig,
): DivergenceCheck {
  const rules = config.divergence;
  const { gapThreshold } = config.convergence;
  const usable = history.filter((entry) => entry.gap !== null && entry.judgeReliable);
  const risingWindow = Math.max(2, rules.risingGapIterations);
  const plateauWindow = Math.max(2, rules.plateauIterations);
  const shown = usable.slice(-Math.max(risingWindow, plateauWindow));
  const magnitudes = (entries: readonly Entry[]): number[] =>
    entries.map((entry) => Math.abs(entry.gap as number));

  const [before, last] = history.slice(-2);
  const patternExplosion =
    before !== undefined &&
    last !== undefined &&
    isPatternExplosion(before.patternCount, last.patternCount, rules.patternExplosionFactor);

  const rising = usable.slice(-risingWindow);
  // A gap that rises within the threshold is not divergence: the cheap mode still tracks
  // the judge (the plateau rule asks the same of a stuck gap).
  const risingGaps = magnitudes(rising);
  const isIncreasing =
    rising.length === risingWindow &&
    isRising(risingGaps) &&
    exceeds(risingGaps.at(-1) as number, gapThreshold);
  const plateauGaps = magnitudes(usable.slice(-plateauWindow));
  const isPlateau =
    plateauGaps.length === plateauWindow &&
    fallsBelow(Math.max(...plateauGaps) - Math.min(...plateauGaps), rules.plateauRange) &&
    exceeds(plateauGaps.at(-1) as number, gapThreshold);

  const latest = usable.at(-1);
  const previous = usable.at(-2);
  const reason = isIncreasing ? 'gap_increasing' : isPlateau ? 'gap_plateau' : null;
  return {
    diverging: reason !== null,
    reason,
    insufficientData: usable.length < Math.min(risingWindow, plateauWindow),
    diagnosis:
      isIncreasing && latest && previous
        ? diagnose(previous, latest, rules.patternExplosionFactor)
        : null,
    patternExplosion,
    iterations: shown.map((entry) => entry.iteration),
    gaps: magnitudes(shown),
    lastKnownGoodVersion: isIncreasing ? (rising[0] as Entry).patternSetVersion : null,
    previousVersion: previous?.patternSetVersion ?? null,
  };
}
