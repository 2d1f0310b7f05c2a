/**
 * Judge reliability: too many failed evaluations make an iteration's expensive result
 * unreliable; scores that move between re-runs are flagged. (Re-runs combine by median in
 * judge/verdict.ts, where the samples are.)
 */
import type { EvaluationConfig } from '../schemas/evaluation-config.js';
import { exceeds } from '../shared/compare.js';
import type { HighVariance, JudgeReliability } from '../schemas/analysis/checks.js';
import type { ExpensiveModeResult } from '../schemas/evaluation.js';
import { sampleVariance } from '../shared/stats.js';

export type { HighVariance, JudgeReliability };

export type ReliabilityConfig = Pick<EvaluationConfig, 'judge'>;

/**
 * How far one iteration's judge results can be trusted.
 *
 * @example
 * assessJudgeReliability(expensiveResults, config);
 * // { total: 10, failed: 3, failureRate: 0.3, unreliable: true, ... }
 */
export function assessJudgeReliability(
  results: readonly ExpensiveModeResult[],
  config: ReliabilityConfig,
): JudgeReliability {
  const failedArtefactIds = results
    .filter((result) => result.status === 'failed')
    .map((result) => result.artefactId)
    .sort();
  const failed = failedArtefactIds.length;
  const failureRate = results.length === 0 ? null : failed / results.length;
  const highVariance: HighVariance[] = [];
  for (const result of results) {
    if (result.status !== 'ok' || !result.samples) continue;
    const variance = sampleVariance(result.samples);
    if (exceeds(variance, config.judge.highVarianceThreshold))
      highVariance.push({ artefactId: result.artefactId, samples: [...result.samples], variance });
  }
  return {
    total: results.length,
    failed,
    failedArtefactIds,
    failureRate,
    unreliable: failureRate === null || exceeds(failureRate, config.judge.unreliableFailureRate),
    highVariance,
  };
}
