/**
 * Our ModelRequest / ModelResponse to and from the Messages API's shapes, shared by the
 * adapters whose clients speak it (`anthropic.ts`, and `bedrock.ts`, whose SDK rewrites the
 * same request into Bedrock's InvokeModel call).
 */
import type {
  Message,
  MessageCreateParamsNonStreaming,
} from '@anthropic-ai/sdk/resources/messages';
import type { ModelRequest, ModelResponse } from '../ports.js';

/**
 * The body of one `messages.create` call for `model` (the id the endpoint knows).
 *
 * @example
 * toMessageParams(request, 'us.anthropic.claude-sonnet-4-6');
 */
export function toMessageParams(
  request: ModelRequest,
  model: string,
): MessageCreateParamsNonStreaming {
  return {
    model,
    max_tokens: request.maxTokens,
    messages: request.messages,
    ...(request.system === '' ? {} : { system: request.system }),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
  };
}

/**
 * The request options of one try: the SDK's own retries off (the retry policy is ours),
 * bounded by the request's per-try timeout, cancelled with the caller's signal.
 */
export function singleTryOptions(request: ModelRequest): {
  maxRetries: 0;
  timeout: number;
  signal?: AbortSignal;
} {
  return {
    maxRetries: 0,
    timeout: Math.max(1, Math.ceil(request.timeoutMs)),
    ...(request.signal === undefined ? {} : { signal: request.signal }),
  };
}

/**
 * The answer's text blocks joined; `model` as the endpoint reported it, else `fallbackModel`.
 *
 * @example
 * toModelResponse(message, 2, request.model).attempts; // 2
 */
export function toModelResponse(
  message: Message,
  attempts: number,
  fallbackModel: string,
): ModelResponse {
  return {
    text: message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join(''),
    model: message.model || fallbackModel,
    stopReason: message.stop_reason ?? null,
    usage: {
      inputTokens: message.usage.input_tokens,
      outputTokens: message.usage.output_tokens,
    },
    attempts,
  };
}
