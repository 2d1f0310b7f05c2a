/**
 * The judge's samples, the pure half: which samples an artefact still needs (the good ones
 * of an earlier pass count), what each call asks, and what its answer makes. The calls
 * are made by `steps/judging.ts`.
 */
import type { EvaluationConfig } from '../schemas/evaluation-config.js';
import type { Artefact, JudgeAnswer } from '../schemas/evaluation.js';
import { parseJudgeAnswer } from './answer.js';
import type { AskResult, AskSpec } from './ask.js';
import type { PricingTable } from './pricing.js';
import { buildCorrectionPrompt, buildJudgePrompt, type JudgePrompt } from './prompt.js';
import type { JudgeRun, JudgeSample } from './verdict.js';

export const DEFAULT_JUDGE_MAX_TOKENS = 1024;

/** How one judge call is made, beyond the config. */
export interface SampleOptions {
  /** @default DEFAULT_JUDGE_MAX_TOKENS */
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

/** One artefact's samples: those reused from an earlier pass, and how many are missing. */
export interface SamplePlan {
  artefact: Artefact;
  reused: JudgeSample[];
  prompt: JudgePrompt;
  missing: number;
}

/**
 * Per artefact, `runs` samples: the earlier pass's good ones first (a re-run pays only for
 * the rest), the prompt the missing ones are asked with.
 *
 * @throws RangeError when `runs` is not a positive integer.
 * @example
 * planSamples(artefacts, 3, firstPass).map((plan) => plan.missing); // [2, 3]
 */
export function planSamples(
  artefacts: readonly Artefact[],
  runs: number,
  previous?: Pick<JudgeRun, 'results'>,
): SamplePlan[] {
  if (!Number.isInteger(runs) || runs < 1) throw new RangeError(`runs must be a positive integer`);
  const previousById = new Map(
    (previous?.results ?? []).map((judged) => [judged.result.artefactId, judged]),
  );
  return artefacts.map((artefact) => {
    const reused = (previousById.get(artefact.id)?.samples ?? [])
      .filter((sample) => sample.status === 'ok')
      .slice(0, runs);
    return { artefact, reused, prompt: buildJudgePrompt(artefact), missing: runs - reused.length };
  });
}

/**
 * What one judge call asks: up to `judge.maxTries` tries while the answers are unusable,
 * each within `judge.timeoutSeconds`.
 *
 * @example
 * const asked = await askUntilValid(model, judgeRequest(prompt, config, 'claude-sonnet-4-6'));
 */
export function judgeRequest(
  prompt: JudgePrompt,
  config: Pick<EvaluationConfig, 'judge'>,
  modelId: string,
  options: SampleOptions = {},
): AskSpec<JudgeAnswer> {
  return {
    modelId,
    system: prompt.system,
    user: prompt.user,
    maxTokens: options.maxTokens ?? DEFAULT_JUDGE_MAX_TOKENS,
    timeoutMs: config.judge.timeoutSeconds * 1000,
    maxTries: config.judge.maxTries,
    ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.pricing === undefined ? {} : { pricing: options.pricing }),
    parse: (text) => parseJudgeAnswer(text, prompt.rubric),
    correction: (problem) => buildCorrectionPrompt(problem, prompt.rubric),
  };
}

/**
 * The sample one judge call made: its answer, or why there was none (with the last raw
 * answer, to keep).
 *
 * @example
 * sampleOf(asked); // { status: 'ok', answer: { gestalt: 4, ... }, attempts: 1, usage }
 */
export function sampleOf(asked: AskResult<JudgeAnswer>): JudgeSample {
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
