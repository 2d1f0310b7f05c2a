/**
 * Asks a model for an answer in a given shape, and while an answer does not parse, shows
 * the model its answer and what is wrong with it, up to `maxTries` calls: the judge's
 * samples and the pattern proposals both ask this way. A model error ends it at once: the
 * adapter has already retried an unavailable model, and a refused request would be
 * refused again. An aborted call (the signal) is thrown: the caller stops. The calls are made here; what is asked and said back is judge/ask.ts.
 */
import type { ModelClient, ModelResponse } from '../../ports.js';
import { RalphError } from '../errors.js';
import {
  answerProblem,
  correctedExchange,
  describeModelError,
  type AskResult,
  type AskSpec,
  type ChatMessage,
} from '../judge/ask.js';
import { ZERO_USAGE, callUsage, sumUsage } from '../judge/usage.js';

/**
 * @example
 * const asked = await askUntilValid(model, { ...prompt, modelId, maxTokens, timeoutMs, maxTries: 3, parse: parseJudgeAnswer, correction: buildCorrectionPrompt });
 * if (asked.ok) use(asked.answer); else log(asked.error, asked.raw);
 */
export async function askUntilValid<T>(
  model: ModelClient,
  spec: AskSpec<T>,
): Promise<AskResult<T>> {
  const question: ChatMessage = { role: 'user', content: spec.user };
  let messages: ChatMessage[] = [question];
  let usage = ZERO_USAGE;
  let raw: string | undefined;
  let problem = 'no answer';
  const failed = (error: string, attempts: number): AskResult<T> => ({
    ok: false,
    error,
    attempts,
    usage,
    ...(raw === undefined ? {} : { raw }),
  });

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
      // Told to stop (the step's Lambda is about to time out): not the model's failure, and
      // nothing is recorded, so a retried step asks again.
      if (!(error instanceof RalphError) || spec.signal?.aborted) throw error;
      return failed(describeModelError(error), attempt);
    }
    usage = sumUsage([usage, callUsage(response, spec.modelId, spec.pricing)]);

    const parsed = spec.parse(response.text);
    if (parsed.ok)
      return { ok: true, answer: parsed.answer, text: response.text, attempts: attempt, usage };

    raw = response.text;
    problem = answerProblem(parsed.problem, response.stopReason, spec.maxTokens);
    messages = correctedExchange(question, response.text, problem, spec.correction);
  }
  return failed(`invalid answer after ${spec.maxTries} tries: ${problem}`, spec.maxTries);
}
