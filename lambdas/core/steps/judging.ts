/**
 * Expensive mode: the LLM judge scores each artefact through the ModelClient port.
 *
 * Retries are layered, each layer owning one kind of failure and never repeating another's:
 * - the adapter retries an unavailable model (429 / 529 / 5xx / timeouts) within its bounded
 *   tries, and then throws TransientError;
 * - the judge retries an unusable answer (not JSON, wrong shape, gestalt outside 1–5) up to
 *   `judge.maxTries` times, showing the model what was wrong with its last answer. It does
 *   not retry a TransientError (that would multiply the adapter's tries) nor a refused
 *   request.
 *
 * An artefact the judge could not score is recorded as `failed`, never as a score: the
 * design document's `gestalt=0.0` sentinel would enter averages and the gap. More than
 * `unreliableFailureRate` failed artefacts make the pass `unreliable`; the remedy the
 * design names is to re-run the judge `judge.reruns` times and take the median per artefact,
 * flagging artefacts whose samples spread more than `highVarianceThreshold`.
 */
import type { Clock, ModelClient } from '../../ports.js';
import type {
  Artefact,
  ExpensiveModeResult,
  JudgeAnswer,
  ModelUsage,
} from '../schemas/evaluation.js';
import type { EvaluationConfig } from '../schemas/evaluation-config.js';
import { parseJudgeAnswer } from '../judge/answer.js';
import { askUntilValid } from './ask-until-valid.js';
import type { PricingTable } from '../judge/pricing.js';
import { buildCorrectionPrompt, buildJudgePrompt, type JudgePrompt } from '../judge/prompt.js';
import { median, roundTo, spread } from '../shared/stats.js';
import { sumUsage } from '../judge/usage.js';

export { sumUsage } from '../judge/usage.js';

export interface JudgeDeps {
  model: ModelClient;
  /** Only for `durationMs`; the judge works without one. */
  clock?: Clock;
}

/** The run config's models: the judge's id (e.g. `claude-sonnet-4-6`). */
export interface JudgeModels {
  judge: string;
}

export interface JudgeOptions {
  /** Samples per artefact; with more than one the median counts. @default 1 */
  runs?: number;
  /**
   * An earlier pass over the same artefacts: each artefact's ok samples from it count
   * toward `runs`, so a re-run after an unreliable pass only pays for the missing samples.
   */
  previous?: JudgeRun;
  /** @default 1024 */
  maxTokens?: number;
  /**
   * Sent only when set: newer models (Sonnet 5 and later) refuse a non-default temperature
   * with a 400.
   */
  temperature?: number;
  signal?: AbortSignal;
  /** @default DEFAULT_PRICING */
  pricing?: PricingTable;
}

/** One judgement of one artefact (one or more model calls). */
export type JudgeSample =
  | { status: 'ok'; answer: JudgeAnswer; attempts: number; usage: ModelUsage }
  | { status: 'failed'; error: string; attempts: number; usage: ModelUsage; rawAnswer?: string };

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
  rerunReason?: 'unreliable' | 'requested';
  /** Tokens and cost of every pass. */
  usage: ModelUsage;
}

export const DEFAULT_JUDGE_MAX_TOKENS = 1024;

/**
 * Scores every artefact with the judge, at most `judge.concurrency` calls at a time.
 *
 * @example
 * const run = await judgeArtefacts({ model }, artefacts, config, { judge: 'claude-sonnet-4-6' });
 * for (const { result, rawAnswer } of run.results)
 *   if (result.status === 'failed' && rawAnswer !== undefined) await artefactStore.put(key, rawAnswer);
 * if (run.unreliable) {
 *   // re-run by median, reusing this pass's samples:
 *   await judgeArtefacts({ model }, artefacts, config, models, { runs: config.judge.reruns, previous: run });
 * }
 */
export async function judgeArtefacts(
  deps: JudgeDeps,
  artefacts: readonly Artefact[],
  config: Pick<EvaluationConfig, 'judge'>,
  models: JudgeModels,
  options: JudgeOptions = {},
): Promise<JudgeRun> {
  const startedAt = deps.clock?.now().getTime();
  const runs = options.runs ?? 1;
  if (!Number.isInteger(runs) || runs < 1) throw new RangeError(`runs must be a positive integer`);
  const previousById = new Map(
    (options.previous?.results ?? []).map((judged) => [judged.result.artefactId, judged]),
  );

  const plans = artefacts.map((artefact) => {
    const reused = (previousById.get(artefact.id)?.samples ?? [])
      .filter((sample) => sample.status === 'ok')
      .slice(0, runs);
    return { artefact, reused, prompt: buildJudgePrompt(artefact), missing: runs - reused.length };
  });
  const tasks = plans.flatMap((plan, index) =>
    Array.from({ length: plan.missing }, () => ({ index, prompt: plan.prompt })),
  );

  const fresh = await mapWithConcurrency(tasks, config.judge.concurrency, (task) =>
    takeSample(deps.model, task.prompt, config, models.judge, options),
  );

  const newSamples = plans.map((): JudgeSample[] => []);
  tasks.forEach((task, taskIndex) => newSamples[task.index]?.push(fresh[taskIndex] as JudgeSample));

  const results = plans.map((plan, index) =>
    combineSamples(
      plan.artefact.id,
      [...plan.reused, ...(newSamples[index] ?? [])],
      runs,
      config.judge.highVarianceThreshold,
    ),
  );

  return {
    ...summariseJudgeRun(
      {
        model: models.judge,
        runs,
        results,
        usage: sumUsage(fresh.map((sample) => sample.usage)),
        calls: fresh.reduce((total, sample) => total + sample.attempts, 0),
      },
      config,
    ),
    ...(startedAt === undefined || deps.clock === undefined
      ? {}
      : { durationMs: deps.clock.now().getTime() - startedAt }),
  };
}

/**
 * A pass's verdicts as a {@link JudgeRun}: failures, reliability, variance and the average,
 * from the verdicts alone (analyze-gap builds one from the Map's stored verdicts).
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
 * The expensive mode of one iteration: one pass, then, when that pass was unreliable (or
 * the caller asks, e.g. because the judge's scores of unchanged artefacts moved between
 * iterations), a re-run with `judge.reruns` samples per artefact whose median counts.
 * The first pass's good samples are reused, so the re-run pays only for the rest.
 *
 * @example
 * const { final, rerun } = await runExpensiveMode({ model }, artefacts, config, models);
 * if (final.unreliable) log.warn('judge unreliable even after re-run', { failureRate: final.failureRate });
 */
export async function runExpensiveMode(
  deps: JudgeDeps,
  artefacts: readonly Artefact[],
  config: Pick<EvaluationConfig, 'judge'>,
  models: JudgeModels,
  options: Omit<JudgeOptions, 'runs' | 'previous'> & { forceRerun?: boolean } = {},
): Promise<ExpensiveModeRun> {
  const { forceRerun = false, ...judgeOptions } = options;
  const firstPass = await judgeArtefacts(deps, artefacts, config, models, judgeOptions);
  if (!firstPass.unreliable && !forceRerun) {
    return { final: firstPass, rerun: false, usage: firstPass.usage };
  }
  const final = await judgeArtefacts(deps, artefacts, config, models, {
    ...judgeOptions,
    runs: config.judge.reruns,
    previous: firstPass,
  });
  return {
    final,
    firstPass,
    rerun: true,
    rerunReason: firstPass.unreliable ? 'unreliable' : 'requested',
    usage: sumUsage([firstPass.usage, final.usage]),
  };
}

/** One judgement: up to `judge.maxTries` calls while the answers are unusable. */
async function takeSample(
  model: ModelClient,
  prompt: JudgePrompt,
  config: Pick<EvaluationConfig, 'judge'>,
  modelId: string,
  options: JudgeOptions,
): Promise<JudgeSample> {
  const asked = await askUntilValid(model, {
    modelId,
    system: prompt.system,
    user: prompt.user,
    maxTokens: options.maxTokens ?? DEFAULT_JUDGE_MAX_TOKENS,
    timeoutMs: config.judge.timeoutSeconds * 1000,
    maxTries: config.judge.maxTries,
    ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.pricing === undefined ? {} : { pricing: options.pricing }),
    parse: parseJudgeAnswer,
    correction: buildCorrectionPrompt,
  });
  if (asked.ok)
    return { status: 'ok', answer: asked.answer, attempts: asked.attempts, usage: asked.usage };
  return {
    status: 'failed',
    error: asked.error,
    attempts: asked.attempts,
    usage: asked.usage,
    ...(asked.raw === undefined ? {} : { rawAnswer: asked.raw }),
  };
}

/** The verdict from an artefact's samples: the median of the good ones, else a failure. */
function combineSamples(
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

  if (good.length === 0) {
    const failures = samples.filter(
      (sample): sample is Extract<JudgeSample, { status: 'failed' }> => sample.status === 'failed',
    );
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
      attempts,
      usage,
      ...(runs > 1 ? { samples: gestalts } : {}),
    },
    samples,
    ...(disagreement === undefined ? {} : { spread: disagreement }),
    highVariance: disagreement !== undefined && disagreement > highVarianceThreshold,
  };
}

/** `fn` over `items`, at most `limit` at a time, results in input order. */
async function mapWithConcurrency<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await fn(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker));
  return results;
}
