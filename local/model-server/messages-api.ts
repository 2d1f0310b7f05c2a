/**
 * The Messages API as the model double speaks it: a key in `x-api-key` or `authorization:
 * Bearer` (where SDK 1.x puts `apiKey`), an `anthropic-version` header, the body's checks,
 * and the API's error shape `{ type: 'error', error: { type, message } }`.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { headerValue, type HttpAnswer } from './http.js';
import { checkMessagesBody } from './messages-body.js';
import type { Admission, ModelApi } from './model-api.js';
import type { MessagesRequestBody } from './request.js';
import { errorMessageOf } from './script.js';

/** The error type the API gives each status. */
const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

/**
 * The Messages API route; with `apiKey`, a key must equal it, otherwise any non-empty key
 * is accepted.
 *
 * @example
 * messagesApi(undefined).admit({ 'x-api-key': 'k', 'anthropic-version': '2023-06-01' }, body);
 */
export function messagesApi(apiKey: string | undefined): ModelApi {
  return {
    protocol: 'messages',
    admit: (headers, body) => admitMessages(headers, body, apiKey),
    scriptedError: (step) => ({
      status: step.status,
      body: errorBody(step.type ?? ERROR_TYPES[step.status] ?? 'api_error', errorMessageOf(step)),
      headers: step.headers,
    }),
    answerHeaders: () => ({ 'request-id': `req_offline_${randomUUID()}` }),
  };
}

/** The answer to a path neither API serves, in the Messages API's shape. */
export function notFound(method: string, path: string): HttpAnswer {
  return { status: 404, body: errorBody('not_found_error', `no route ${method} ${path}`) };
}

function admitMessages(
  headers: IncomingHttpHeaders,
  body: unknown,
  apiKey: string | undefined,
): Admission {
  const key = credentialOf(headers);
  if (!key)
    return refuse(401, 'authentication_error', 'x-api-key or authorization header is required');
  if (apiKey !== undefined && key !== apiKey)
    return refuse(401, 'authentication_error', 'invalid x-api-key');
  if (!headerValue(headers, 'anthropic-version'))
    return refuse(400, 'invalid_request_error', 'anthropic-version header is required');
  const problem = checkMessagesBody(body);
  if (problem) return refuse(400, 'invalid_request_error', problem);
  return { admitted: true, body: body as MessagesRequestBody };
}

function refuse(status: number, type: string, message: string): Admission {
  return { admitted: false, refusal: { status, body: errorBody(type, message) } };
}

function errorBody(type: string, message: string) {
  return { type: 'error', error: { type, message } };
}

/**
 * The caller's key: `x-api-key`, or `authorization: Bearer <key>`, which is how
 * `@anthropic-ai/sdk` 1.x sends an `apiKey`.
 */
function credentialOf(headers: IncomingHttpHeaders): string | undefined {
  const apiKey = headerValue(headers, 'x-api-key');
  if (apiKey) return apiKey;
  const bearer = /^Bearer\s+(\S+)$/i.exec(headerValue(headers, 'authorization') ?? '');
  return bearer?.[1];
}
