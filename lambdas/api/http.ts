/**
 * The request and response edges every route shares: the JSON body (size, media type,
 * syntax), the caller's identity as API Gateway's authorizer reports it, and answers as
 * web Responses (JSON, problem+json, redirects).
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { parseJsonText } from '../core/shared/validation.js';
import { PROBLEM_CONTENT_TYPE, problemFor, HttpProblem } from './problem.js';
import { API_BODY_LIMIT_BYTES } from './route-table.js';

/** The authorizer part of an HTTP API event (IAM or JWT), as far as we read it. */
interface Authorizer {
  iam?: { userArn?: string; callerId?: string };
  jwt?: { claims?: Record<string, unknown> };
}

/** Who sent the request: the IAM principal or the JWT subject (idempotency keys are theirs). */
export function callerOf(event: APIGatewayProxyEventV2): string {
  const authorizer = (event.requestContext as { authorizer?: Authorizer }).authorizer;
  const iam = authorizer?.iam?.userArn ?? authorizer?.iam?.callerId;
  if (iam) return `iam:${iam}`;
  const subject = authorizer?.jwt?.claims?.sub;
  return typeof subject === 'string' ? `jwt:${subject}` : 'anonymous';
}

/** Header names in lower case (API Gateway v2 already lowers them; a test may not). */
export function headersOf(event: APIGatewayProxyEventV2): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.entries(event.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
  );
}

/**
 * The body's bytes as the caller sent them (`413` over the limit): API Gateway hands a body it
 * does not take for text base64-encoded (`isBase64Encoded`), which is decoded here. A
 * webhook's signature is over exactly these bytes.
 */
export function rawBodyOf(event: APIGatewayProxyEventV2): Buffer {
  const raw = event.body ?? '';
  const bytes = event.isBase64Encoded ? Buffer.from(raw, 'base64') : Buffer.from(raw, 'utf8');
  if (bytes.length > API_BODY_LIMIT_BYTES)
    throw new HttpProblem(
      413,
      `the body is ${bytes.length} bytes; at most ${API_BODY_LIMIT_BYTES} are accepted`,
      'BODY_TOO_LARGE',
    );
  return bytes;
}

/** The request's JSON body: `413` over the limit, `415` when not JSON, `400` when malformed. */
export function jsonBodyOf(event: APIGatewayProxyEventV2): unknown {
  const bytes = rawBodyOf(event);
  const type = headersOf(event)['content-type'] ?? '';
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type))
    throw new HttpProblem(
      415,
      `Content-Type: expected application/json, got ${type || 'none'}`,
      'UNSUPPORTED_MEDIA_TYPE',
    );
  return parseJsonText(bytes.toString('utf8'), 'request body');
}

/** A body a route may leave out: none at all is `{}`; one that is there is read as jsonBodyOf does. */
export function optionalJsonBodyOf(event: APIGatewayProxyEventV2): unknown {
  return (event.body ?? '') === '' ? {} : jsonBodyOf(event);
}

export function json(status: number, value: unknown): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

export function redirect(location: string): Response {
  return new Response(null, { status: 302, headers: { location, 'cache-control': 'no-store' } });
}

/** The problem+json answer for an error (see problem.ts for the mapping). */
export function problem(error: unknown, instance?: string): Response {
  const { problem: body, headers } = problemFor(error, instance);
  return new Response(JSON.stringify(body), {
    status: body.status,
    headers: { 'content-type': PROBLEM_CONTENT_TYPE, ...headers },
  });
}
