/** Which API a request is addressed to, by method and path. */
import { bedrockApi } from './bedrock-api.js';
import { bedrockModelIdOf } from './bedrock-protocol.js';
import { messagesApi } from './messages-api.js';
import type { ModelApi } from './model-api.js';

/**
 * `POST /v1/messages` is the Messages API, `POST /model/{modelId}/invoke` Bedrock's
 * InvokeModel; anything else is no route (undefined).
 *
 * @example
 * routeOf('POST', '/model/anthropic.claude-sonnet-4-6/invoke', undefined)?.protocol; // 'bedrock'
 */
export function routeOf(
  method: string,
  path: string,
  apiKey: string | undefined,
): ModelApi | undefined {
  if (method !== 'POST') return undefined;
  const modelId = bedrockModelIdOf(path);
  if (modelId !== undefined) return bedrockApi(modelId);
  return path === '/v1/messages' ? messagesApi(apiKey) : undefined;
}
