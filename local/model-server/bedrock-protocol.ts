/**
 * What the model double (`local/model-server/`) needs to answer like Bedrock's
 * InvokeModel for Claude (`POST /model/{modelId}/invoke`): the route, the request checks
 * Bedrock makes before the model sees the body, and its error shape (`{ message }` with
 * the exception's name in `x-amzn-errortype`). The success body is the Messages API's, so
 * the double shares that part.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { headerValue } from './http.js';

/** The only `anthropic_version` Bedrock accepts in the body for Claude. */
export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';

/** The scope of a SigV4 `authorization` header (the signature itself is not verified). */
export interface SigV4Scope {
  algorithm: 'AWS4-HMAC-SHA256';
  accessKeyId: string;
  /** `YYYYMMDD`. */
  date: string;
  region: string;
  service: string;
  signedHeaders: string[];
}

/** A refusal in Bedrock's terms: the status and the exception's name. */
export interface BedrockRefusal {
  status: number;
  type: string;
  message: string;
}

/** The status Bedrock answers each exception with (InvokeModel's documented errors). */
export const BEDROCK_ERROR_STATUS: Readonly<Record<string, number>> = {
  ValidationException: 400,
  ServiceQuotaExceededException: 400,
  AccessDeniedException: 403,
  UnrecognizedClientException: 403,
  ResourceNotFoundException: 404,
  ModelTimeoutException: 408,
  ModelErrorException: 424,
  ThrottlingException: 429,
  ModelNotReadyException: 429,
  InternalServerException: 500,
  ServiceUnavailableException: 503,
};

const EXCEPTION_OF_STATUS: Readonly<Record<number, string>> = {
  400: 'ValidationException',
  403: 'AccessDeniedException',
  404: 'ResourceNotFoundException',
  408: 'ModelTimeoutException',
  424: 'ModelErrorException',
  429: 'ThrottlingException',
  500: 'InternalServerException',
  503: 'ServiceUnavailableException',
};

/** The decoded model id of an InvokeModel path, or undefined for another path. */
export function bedrockModelIdOf(path: string): string | undefined {
  const match = /^\/model\/([^/]+)\/invoke$/.exec(path);
  if (!match?.[1]) return undefined;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return undefined;
  }
}

/**
 * A scripted status in Bedrock's terms. Statuses Bedrock does not use become the ones it
 * does: 529 overloaded is 503 ServiceUnavailableException, 401 is 403
 * UnrecognizedClientException.
 */
export function bedrockFault(
  status: number,
  type: string | undefined,
): { status: number; type: string } {
  if (type !== undefined) return { status, type };
  if (status === 529) return { status: 503, type: 'ServiceUnavailableException' };
  if (status === 401) return { status: 403, type: 'UnrecognizedClientException' };
  return {
    status,
    type:
      EXCEPTION_OF_STATUS[status] ??
      (status >= 500 ? 'InternalServerException' : 'ValidationException'),
  };
}

/** Bedrock's error body and headers. */
export function bedrockErrorResponse(
  type: string,
  message: string,
): { body: { message: string }; headers: Record<string, string> } {
  return {
    body: { message },
    headers: {
      'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
      'x-amzn-requestid': randomUUID(),
    },
  };
}

/**
 * The caller's SigV4 scope; `{ scope: undefined }` for a Bedrock API key (`Bearer`); a
 * refusal when neither is there or the scope is not Bedrock's.
 */
export function checkBedrockAuth(
  headers: IncomingHttpHeaders,
): { scope: SigV4Scope | undefined } | BedrockRefusal {
  const authorization = headerValue(headers, 'authorization') ?? '';
  if (/^Bearer\s+\S+$/i.test(authorization)) return { scope: undefined };
  if (!authorization)
    return {
      status: 403,
      type: 'MissingAuthenticationTokenException',
      message: 'Missing Authentication Token',
    };
  const signed =
    /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request,\s*SignedHeaders=([^,\s]+),\s*Signature=[0-9a-f]{64}$/.exec(
      authorization,
    );
  if (!signed)
    return {
      status: 403,
      type: 'IncompleteSignatureException',
      message:
        'Authorization header requires a AWS4-HMAC-SHA256 Credential, SignedHeaders and Signature',
    };
  const [, accessKeyId = '', date = '', region = '', service = '', signedHeaders = ''] = signed;
  if (service !== 'bedrock')
    return {
      status: 403,
      type: 'InvalidSignatureException',
      message: `Credential should be scoped to correct service: 'bedrock'.`,
    };
  if (!headerValue(headers, 'x-amz-date'))
    return {
      status: 403,
      type: 'IncompleteSignatureException',
      message: 'Authorization header requires existence of either a X-Amz-Date or a Date header.',
    };
  return {
    scope: {
      algorithm: 'AWS4-HMAC-SHA256',
      accessKeyId,
      date,
      region,
      service,
      signedHeaders: signedHeaders.split(';'),
    },
  };
}

/**
 * What Bedrock refuses in an InvokeModel body for Claude before the Messages API's own
 * checks: not an object, no or another `anthropic_version`, keys that belong in the path
 * (`model`) or the operation (`stream`).
 */
export function checkBedrockBody(body: unknown): BedrockRefusal | undefined {
  const refuse = (detail: string): BedrockRefusal => ({
    status: 400,
    type: 'ValidationException',
    message: `Malformed input request: ${detail}, please reformat your input and try again.`,
  });
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return refuse('#: expected type: JSONObject');
  const fields = body as Record<string, unknown>;
  if (fields.anthropic_version === undefined)
    return refuse('#: required key [anthropic_version] not found');
  if (fields.anthropic_version !== BEDROCK_ANTHROPIC_VERSION)
    return refuse(
      `#/anthropic_version: ${JSON.stringify(fields.anthropic_version)} is not a valid enum value`,
    );
  for (const key of ['model', 'stream'])
    if (key in fields) return refuse(`#: extraneous key [${key}] is not permitted`);
  return undefined;
}
