/**
 * Judge reliability: too many failed evaluations make an iteration's expensive result
 * unreliable; scores that move between re-runs are flagged; re-runs combine by median.
 */
import type { EvaluationConfig } from '../schemas/evaluation-config.js';
import { exceeds } from '../shared/compare.js';
import { InvalidInputError } from '../errors.js';
import type { HighVariance, JudgeReliability } from '../schemas/analysis/checks.js';
import type { ExpensiveModeResult, ModelUsage } from '../schemas/evaluation.js';
import { median, sampleVariance } from '../shared/stats.js';

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

/**
 * The median of re-run scores, or `null` with none.
 *
 * @example
 * medianOfReruns([3, 5, 4]); // 4
 */
export function medianOfReruns(samples: readonly number[]): number | null {
  return median(samples);
}

function addUsage(runs: readonly ExpensiveModeResult[]): ModelUsage {
  return runs.reduce(
    (sum, run) => ({
      inputTokens: sum.inputTokens + run.usage.inputTokens,
      outputTokens: sum.outputTokens + run.usage.outputTokens,
      costUsd: sum.costUsd + run.usage.costUsd,
    }),
    { inputTokens: 0, outputTokens: 0, costUsd: 0 },
  );
}

/**
 * Several judge runs on one artefact as one result: the median score of the runs that
 * succeeded (every score kept in `samples`), with the reasoning, strengths and weaknesses of
 * the run closest to the median (the first of equals). Failed runs only add their attempts
 * and usage; when every run failed, the last failure is returned with all attempts and usage.
 *
 * @throws InvalidInputError when there is no run or the runs are for different artefacts.
 * @example
 * combineJudgeReruns([run1, run2, run3]);
 * // { status: 'ok', gestalt: 4, samples: [3.5, 4, 4.5], attempts: 3, ... }
 */
export function combineJudgeReruns(runs: readonly ExpensiveModeResult[]): ExpensiveModeResult {
  const first = runs[0];
  if (!first) throw new InvalidInputError('judge re-runs', ['there is no run to combine']);
  const strangers = runs.filter((run) => run.artefactId !== first.artefactId);
  if (strangers.length > 0)
    throw new InvalidInputError(
      'judge re-runs',
      strangers.map((run) => `run for ${run.artefactId} among runs for ${first.artefactId}`),
    );

  const attempts = runs.reduce((sum, run) => sum + run.attempts, 0);
  const usage = addUsage(runs);
  const succeeded = runs.filter((run) => run.status === 'ok');
  const samples = succeeded.map((run) => run.gestalt);
  const centre = median(samples);
  if (centre === null) return { ...(runs.at(-1) as ExpensiveModeResult), attempts, usage };

  const closest = succeeded.reduce((best, run) =>
    Math.abs(run.gestalt - centre) < Math.abs(best.gestalt - centre) ? run : best,
  );
  return { ...closest, gestalt: centre, samples, attempts, usage };
}
