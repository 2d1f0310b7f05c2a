/**
 * From the judge's samples to its verdicts, and from a pass's verdicts to how far the pass
 * can be trusted. Pure: the model calls that take the samples are `steps/judging.ts`.
 *
 * An artefact the judge could not score is recorded as `failed`, never as a score: the
 * design document's `gestalt=0.0` sentinel would enter averages and the gap. More than
 * `judge.unreliableFailureRate` failed artefacts make the pass `unreliable`; the remedy
 * the design names is to re-run the judge `judge.reruns` times and take the median per
 * artefact, flagging artefacts whose samples spread more than `judge.highVarianceThreshold`.
 */
import type { EvaluationConfig } from '../schemas/evaluation-config.js';
import type { ExpensiveModeResult, JudgeAnswer, ModelUsage } from '../schemas/evaluation.js';
import { median, roundTo, spread } from '../shared/stats.js';
import { ZERO_USAGE, sumUsage } from './usage.js';

/** One judgement of one artefact (one or more model calls). */
export type JudgeSample =
  | { status: 'ok'; answer: JudgeAnswer; attempts: number; usage: ModelUsage }
  | { status: 'failed'; error: string; attempts: number; usage: ModelUsage; rawAnswer?: string };

type FailedSample = Extract<JudgeSample, { status: 'failed' }>;

export interface JudgedArtefact {
  /**
   * The verdict. `attempts` counts model calls across all samples (the adapter's own
   * tries of one call are inside one attempt); `usage` covers every sample it was made from.
   */
  result: ExpensiveModeResult;
  /**
   * For a failed result, the last unusable answer, for the caller to store (S3) and name
   * in `result.rawAnswerKey`. Absent when the model never answered.
   */
  rawAnswer?: string;
  /** Every sample the verdict was made from, reused ones first. */
  samples: JudgeSample[];
  /** Highest minus lowest gestalt of the ok samples, when there were two or more. */
  spread?: number;
  /** `spread` is above `highVarianceThreshold`: the judge disagrees with itself. */
  highVariance: boolean;
}

export interface JudgeRun {
  model: string;
  /** Samples asked per artefact. */
  runs: number;
  /** In the order of the artefacts given. */
  results: JudgedArtefact[];
  /** Tokens and cost of this pass's calls (samples reused from `previous` are not counted again). */
  usage: ModelUsage;
  /** Model calls this pass made. */
  calls: number;
  judged: number;
  failed: number;
  /** failed / artefacts (0 for no artefacts). */
  failureRate: number;
  /** failureRate > unreliableFailureRate. */
  unreliable: boolean;
  /** Some artefact's samples spread more than highVarianceThreshold. */
  highVariance: boolean;
  /** Mean gestalt of the ok results; absent when none. Failures never enter it. */
  averageGestalt?: number;
  durationMs?: number;
}

export interface ExpensiveModeRun {
  /** The pass whose results count: the re-run when there was one. */
  final: JudgeRun;
  /** The first pass, when it was followed by a re-run. */
  firstPass?: JudgeRun;
  rerun: boolean;
  /** Why the judge was re-run. */
  rerunReason?: RerunReason;
  /** Tokens and cost of every pass. */
  usage: ModelUsage;
}

export type RerunReason = 'unreliable' | 'requested';

/**
 * The verdict from an artefact's samples: the median of the good ones, else a failure.
 *
 * @example
 * combineSamples('story_1', [ok(4), ok(3), ok(4.5)], 3, 0.5).result.gestalt; // 4
 */
export function combineSamples(
  artefactId: string,
  samples: JudgeSample[],
  runs: number,
  highVarianceThreshold: number,
): JudgedArtefact {
  const attempts = Math.max(
    1,
    samples.reduce((total, sample) => total + sample.attempts, 0),
  );
  const usage = sumUsage(samples.map((sample) => sample.usage));
  const good = samples.flatMap((sample) => (sample.status === 'ok' ? [sample.answer] : []));
  if (good.length === 0) return failedVerdict(artefactId, samples, attempts, usage);

  const gestalts = good.map((answer) => answer.gestalt);
  const middle = roundTo(median(gestalts) as number, 3);
  // The reasoning shown is that of the sample nearest the median.
  const representative = good.reduce((best, answer) =>
    Math.abs(answer.gestalt - middle) < Math.abs(best.gestalt - middle) ? answer : best,
  );
  const disagreement = good.length > 1 ? roundTo(spread(gestalts), 3) : undefined;
  return {
    result: {
      status: 'ok',
      artefactId,
      gestalt: middle,
      reasoning: representative.reasoning,
      strengths: representative.strengths,
      weaknesses: representative.weaknesses,
      ...(representative.criteria ? { criteria: representative.criteria } : {}),
      attempts,
      usage,
      ...(runs > 1 ? { samples: gestalts } : {}),
    },
    samples,
    ...(disagreement === undefined ? {} : { spread: disagreement }),
    highVariance: disagreement !== undefined && disagreement > highVarianceThreshold,
  };
}

/** Every sample failed: the last failure, and the last raw answer there was. */
function failedVerdict(
  artefactId: string,
  samples: JudgeSample[],
  attempts: number,
  usage: ModelUsage,
): JudgedArtefact {
  const failures = samples.filter((sample): sample is FailedSample => sample.status === 'failed');
  const last = failures.at(-1);
  const rawAnswer = failures.findLast((sample) => sample.rawAnswer !== undefined)?.rawAnswer;
  const error =
    failures.length > 1
      ? `all ${failures.length} samples failed; last: ${last?.error ?? 'unknown'}`
      : (last?.error ?? 'no sample was taken');
  return {
    result: { status: 'failed', artefactId, error, attempts, usage },
    ...(rawAnswer === undefined ? {} : { rawAnswer }),
    samples,
    highVariance: false,
  };
}

/**
 * A pass's verdicts as a {@link JudgeRun}: failures, reliability, variance and the average,
 * from the verdicts alone.
 *
 * @example
 * summariseJudgeRun({ model, runs: 1, results, usage, calls }, config).unreliable; // false
 */
export function summariseJudgeRun(
  pass: Pick<JudgeRun, 'model' | 'runs' | 'results' | 'usage' | 'calls'>,
  config: Pick<EvaluationConfig, 'judge'>,
): JudgeRun {
  const { results } = pass;
  const failed = results.filter((judged) => judged.result.status === 'failed').length;
  const failureRate = results.length === 0 ? 0 : failed / results.length;
  const okGestalts = results.flatMap((judged) =>
    judged.result.status === 'ok' ? [judged.result.gestalt] : [],
  );
  return {
    ...pass,
    judged: results.length - failed,
    failed,
    failureRate,
    unreliable: failureRate > config.judge.unreliableFailureRate,
    highVariance: results.some((judged) => judged.highVariance),
    ...(okGestalts.length === 0
      ? {}
      : {
          averageGestalt: roundTo(
            okGestalts.reduce((total, gestalt) => total + gestalt, 0) / okGestalts.length,
            3,
          ),
        }),
  };
}

/**
 * The verdicts of the judge's Map (one step per artefact) as one pass of the judge.
 *
 * @example
 * judgeRunOf(loaded, config, 'claude-sonnet-4-6').failureRate; // 0.25
 */
export function judgeRunOf(
  results: JudgedArtefact[],
  config: Pick<EvaluationConfig, 'judge'>,
  model: string,
): JudgeRun {
  return summariseJudgeRun(
    {
      model,
      runs: 1,
      results,
      usage: sumUsage(results.map((judged) => judged.result.usage)),
      calls: results.reduce((total, judged) => total + judged.result.attempts, 0),
    },
    config,
  );
}

/**
 * The verdict of a Map item that stored none (its step failed past its retries): a failed
 * evaluation, never a score.
 *
 * @example
 * missingVerdict('story_1').result.status; // 'failed'
 */
export function missingVerdict(artefactId: string): JudgedArtefact {
  const error = 'the judge step stored no verdict (it failed past its retries)';
  return {
    result: { status: 'failed', artefactId, error, attempts: 1, usage: ZERO_USAGE },
    samples: [{ status: 'failed', error, attempts: 1, usage: ZERO_USAGE }],
    highVariance: false,
  };
}

/**
 * Every artefact's verdict after a re-run of some: the re-run's where there is one, the
 * earlier one otherwise, in the earlier pass's order.
 *
 * @example
 * mergeRerun(previous.results, rerun.results).map((judged) => judged.result.artefactId);
 */
export function mergeRerun(
  previous: readonly JudgedArtefact[],
  rerun: readonly JudgedArtefact[],
): JudgedArtefact[] {
  const byId = new Map(rerun.map((judged) => [judged.result.artefactId, judged]));
  return previous.map((judged) => byId.get(judged.result.artefactId) ?? judged);
}

/**
 * Whether a first pass is followed by a re-run by median, and why: it was unreliable, or
 * the caller asked (e.g. the judge's scores of unchanged artefacts moved).
 *
 * @example
 * rerunReason({ unreliable: true }, false); // 'unreliable'
 * rerunReason({ unreliable: false }, false); // undefined
 */
export function rerunReason(
  firstPass: Pick<JudgeRun, 'unreliable'>,
  forceRerun: boolean,
): RerunReason | undefined {
  if (firstPass.unreliable) return 'unreliable';
  return forceRerun ? 'requested' : undefined;
}
