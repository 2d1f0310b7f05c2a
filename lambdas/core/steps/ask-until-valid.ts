/**
 * Asks a model for an answer in a given shape, and while an answer does not parse, shows
 * the model its answer and what is wrong with it, up to `maxTries` calls: the judge's
 * samples and the pattern proposals both ask this way. A model error ends it at once: the
 * adapter has already retried an unavailable model, and a refused request would be
 * refused again.
 */
import type { ModelClient, ModelResponse } from '../../ports.js';
import { RalphError, TransientError } from '../errors.js';
import type { ModelUsage } from '../schemas/evaluation.js';
import type { PricingTable } from '../judge/pricing.js';
import { ZERO_USAGE, callUsage, sumUsage } from '../judge/usage.js';

export interface AskSpec<T> {
  modelId: string;
  system: string;
  user: string;
  maxTokens: number;
  timeoutMs: number;
  maxTries: number;
  temperature?: number;
  signal?: AbortSignal;
  pricing?: PricingTable;
  parse(text: string): { ok: true; answer: T } | { ok: false; problem: string };
  /** What the model is told after an answer that did not parse. */
  correction(problem: string): string;
}

export type AskResult<T> =
  | { ok: true; answer: T; text: string; attempts: number; usage: ModelUsage }
  | { ok: false; error: string; raw?: string; attempts: number; usage: ModelUsage };

/**
 * @example
 * const asked = await askUntilValid(model, { ...prompt, modelId, maxTokens, timeoutMs, maxTries: 3, parse: parseJudgeAnswer, correction: buildCorrectionPrompt });
 * if (asked.ok) use(asked.answer); else log(asked.error, asked.raw);
 */
export async function askUntilValid<T>(
  model: ModelClient,
  spec: AskSpec<T>,
): Promise<AskResult<T>> {
  const question = { role: 'user' as const, content: spec.user };
  let messages: { role: 'user' | 'assistant'; content: string }[] = [question];
  let usage = ZERO_USAGE;
  let raw: string | undefined;
  let problem = 'no answer';

  for (let attempt = 1; attempt <= spec.maxTries; attempt += 1) {
    let response: ModelResponse;
    try {
      response = await model.complete({
        model: spec.modelId,
        system: spec.system,
        messages,
        maxTokens: spec.maxTokens,
        timeoutMs: spec.timeoutMs,
        ...(spec.temperature === undefined ? {} : { temperature: spec.temperature }),
        ...(spec.signal === undefined ? {} : { signal: spec.signal }),
      });
    } catch (error) {
      if (!(error instanceof RalphError)) throw error;
      return {
        ok: false,
        error: describeModelError(error),
        attempts: attempt,
        usage,
        ...(raw === undefined ? {} : { raw }),
      };
    }
    usage = sumUsage([usage, callUsage(response, spec.modelId, spec.pricing)]);

    const parsed = spec.parse(response.text);
    if (parsed.ok)
      return { ok: true, answer: parsed.answer, text: response.text, attempts: attempt, usage };

    raw = response.text;
    problem =
      response.stopReason === 'max_tokens'
        ? `${parsed.problem} (the answer was cut off at ${spec.maxTokens} tokens)`
        : parsed.problem;
    const shown = response.text.trimEnd();
    messages =
      shown.trim() === ''
        ? [question]
        : [
            question,
            { role: 'assistant', content: shown },
            { role: 'user', content: spec.correction(problem) },
          ];
  }
  return {
    ok: false,
    error: `invalid answer after ${spec.maxTries} tries: ${problem}`,
    attempts: spec.maxTries,
    usage,
    ...(raw === undefined ? {} : { raw }),
  };
}

function describeModelError(error: RalphError): string {
  if (error instanceof TransientError) return `model unavailable: ${error.message}`;
  return `model refused the request (${error.code}): ${error.message}`;
}
