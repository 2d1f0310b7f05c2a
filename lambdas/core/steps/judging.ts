/**
 * Expensive mode: the LLM judge scores each artefact through the ModelClient port. This
 * module makes the calls; what they ask, how samples become verdicts and when a pass is
 * re-run are judge/ (sampling.ts, verdict.ts).
 *
 * Retries are layered, each layer owning one kind of failure and never repeating another's:
 * - the adapter retries an unavailable model (429 / 529 / 5xx / timeouts) within its bounded
 *   tries, and then throws TransientError;
 * - the judge retries an unusable answer (not JSON, wrong shape, gestalt outside 1–5) up to
 *   `judge.maxTries` times, showing the model what was wrong with its last answer. It does
 *   not retry a TransientError (that would multiply the adapter's tries) nor a refused
 *   request.
 */
import type { Clock, ModelClient } from '../../ports.js';
import type { EvaluationConfig } from '../schemas/evaluation-config.js';
import type { Artefact } from '../schemas/evaluation.js';
import { judgeRequest, planSamples, sampleOf, type SampleOptions } from '../judge/sampling.js';
import { sumUsage } from '../judge/usage.js';
import {
  combineSamples,
  rerunReason,
  summariseJudgeRun,
  type ExpensiveModeRun,
  type JudgeRun,
  type JudgeSample,
} from '../judge/verdict.js';
import { askUntilValid } from './ask-until-valid.js';

export interface JudgeDeps {
  model: ModelClient;
  /** Only for `durationMs`; the judge works without one. */
  clock?: Clock;
}

/** The run config's models: the judge's id (e.g. `claude-sonnet-4-6`). */
export interface JudgeModels {
  judge: string;
}

export interface JudgeOptions extends SampleOptions {
  /** Samples per artefact; with more than one the median counts. @default 1 */
  runs?: number;
  /**
   * An earlier pass over the same artefacts: each artefact's ok samples from it count
   * toward `runs`, so a re-run after an unreliable pass only pays for the missing samples.
   */
  previous?: JudgeRun;
}

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
  const plans = planSamples(artefacts, runs, options.previous);
  const tasks = plans.flatMap((plan, index) =>
    Array.from({ length: plan.missing }, () => ({ index, prompt: plan.prompt })),
  );

  const fresh = await mapWithConcurrency(tasks, config.judge.concurrency, async (task) =>
    sampleOf(
      await askUntilValid(deps.model, judgeRequest(task.prompt, config, models.judge, options)),
    ),
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
  options: SampleOptions & { forceRerun?: boolean } = {},
): Promise<ExpensiveModeRun> {
  const { forceRerun = false, ...judgeOptions } = options;
  const firstPass = await judgeArtefacts(deps, artefacts, config, models, judgeOptions);
  const reason = rerunReason(firstPass, forceRerun);
  if (reason === undefined) return { final: firstPass, rerun: false, usage: firstPass.usage };
  const final = await judgeArtefacts(deps, artefacts, config, models, {
    ...judgeOptions,
    runs: config.judge.reruns,
    previous: firstPass,
  });
  return {
    final,
    firstPass,
    rerun: true,
    rerunReason: reason,
    usage: sumUsage([firstPass.usage, final.usage]),
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
