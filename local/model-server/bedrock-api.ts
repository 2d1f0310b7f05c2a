/**
 * Bedrock's InvokeModel for Claude as the model double speaks it (the rules are in
 * `bedrock-protocol.ts`): a SigV4 `authorization`, whose scope is recorded without
 * verifying the signature, or a Bedrock API key; the body's Bedrock checks, then the
 * Messages API's with the path's model id as `model`; Bedrock's error shape and statuses.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import {
  bedrockErrorResponse,
  bedrockFault,
  checkBedrockAuth,
  checkBedrockBody,
  type BedrockRefusal,
} from './bedrock-protocol.js';
import type { HttpAnswer } from './http.js';
import { checkMessagesBody } from './messages-body.js';
import type { Admission, ModelApi } from './model-api.js';
import type { MessagesRequestBody } from './request.js';
import { errorMessageOf } from './script.js';

/**
 * The InvokeModel route for the model of the path.
 *
 * @example
 * bedrockApi('anthropic.claude-sonnet-4-6').admit(signedHeaders, { anthropic_version: 'bedrock-2023-05-31', ... });
 */
export function bedrockApi(modelId: string): ModelApi {
  return {
    protocol: 'bedrock',
    modelId,
    admit: (headers, body) => admitBedrock(headers, body, modelId),
    scriptedError: (step) => {
      const { status, type } = bedrockFault(step.status, step.bedrockType);
      const shaped = bedrockErrorResponse(type, errorMessageOf(step));
      return { status, body: shaped.body, headers: { ...shaped.headers, ...step.headers } };
    },
    answerHeaders: (usage) => ({
      'x-amzn-requestid': randomUUID(),
      'x-amzn-bedrock-input-token-count': String(usage.input_tokens),
      'x-amzn-bedrock-output-token-count': String(usage.output_tokens),
    }),
  };
}

function admitBedrock(headers: IncomingHttpHeaders, body: unknown, modelId: string): Admission {
  const auth = checkBedrockAuth(headers);
  if ('status' in auth) return { admitted: false, refusal: refusalOf(auth) };
  const signed = auth.scope === undefined ? {} : { sigV4: auth.scope };
  const refusal = checkBedrockBody(body);
  if (refusal) return { ...signed, admitted: false, refusal: refusalOf(refusal) };
  const withModel = { ...(body as MessagesRequestBody), model: modelId };
  const problem = checkMessagesBody(withModel);
  if (problem)
    return {
      ...signed,
      admitted: false,
      refusal: refusalOf({ status: 400, type: 'ValidationException', message: problem }),
    };
  return { ...signed, admitted: true, body: withModel };
}

function refusalOf({ status, type, message }: BedrockRefusal): HttpAnswer {
  return { status, ...bedrockErrorResponse(type, message) };
}
