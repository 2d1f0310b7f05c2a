/**
 * One API call made two ways: signed and sent over HTTP to the local server (the client's
 * signing, the socket, the server's signature check, the event it builds, the answer), or
 * handed to the same router in-process as the equivalent API Gateway event. Each returns
 * the answer and its own duration in ms; what the in-process path does not time (signing,
 * building the event) is what a Lambda never pays for either.
 */
import type { ApiEntry } from '../../lambdas/api/router.js';
import { signRequest } from '../../lambdas/adapters/sigv4.js';
import { apiGatewayEvent, lambdaContext } from '../../local/api-server/api-event.js';
import type { LocalCredential } from '../../local/api-server/signature-check.js';

export interface ApiCall {
  method: 'GET' | 'POST';
  /** Path and query, e.g. `/runs/01J…`. */
  path: string;
  /** JSON text. */
  body?: string;
  /** The status a good answer has; any other voids the measurement. */
  status: number;
}

/** Where the calls go and how they are signed. */
export interface CallTarget {
  url: string;
  credential: LocalCredential;
  region: string;
}

export interface Answer {
  status: number;
  body: string;
  ms: number;
}

/** The headers a client sends for `call`, SigV4-signed for the server's credential. */
function signedHeaders(target: CallTarget, call: ApiCall, url: URL) {
  return signRequest(
    {
      method: call.method,
      url,
      headers: call.body === undefined ? {} : { 'content-type': 'application/json' },
      ...(call.body === undefined ? {} : { body: call.body }),
    },
    { credentials: target.credential, region: target.region },
  );
}

/**
 * Signed and sent with fetch, timed until the whole answer is read. Node's fetch keeps
 * its connections alive, so after the warm-up no call opens a connection (its pool takes
 * turns with two sockets), as for a client that polls the API.
 */
export async function viaHttp(target: CallTarget, call: ApiCall): Promise<Answer> {
  const start = performance.now();
  const url = new URL(call.path, target.url);
  // fetch sets `host` itself, to the same value the signature covers.
  const { host: _host, ...headers } = await signedHeaders(target, call, url);
  const response = await fetch(url, {
    method: call.method,
    headers,
    ...(call.body === undefined ? {} : { body: call.body }),
  });
  const body = await response.text();
  return { status: response.status, body, ms: performance.now() - start };
}

/** The event the server would build for `call` (same signed headers), handed to `entry`. */
export async function inProcess(
  target: CallTarget,
  entry: ApiEntry,
  call: ApiCall,
): Promise<Answer> {
  const url = new URL(call.path, target.url);
  return callEntry(entry, {
    method: call.method,
    url,
    headers: await signedHeaders(target, call, url),
    body: Buffer.from(call.body ?? ''),
    sourceIp: '127.0.0.1',
    accessKeyId: target.credential.accessKeyId,
  });
}

/**
 * `request` as the API Gateway event the local server would build, handed to `entry`; the
 * event is built before the clock starts, so only the router and the handler are timed.
 */
export async function callEntry(
  entry: ApiEntry,
  request: Parameters<typeof apiGatewayEvent>[0],
): Promise<Answer> {
  const event = apiGatewayEvent(request, new Date());
  const context = lambdaContext(event.requestContext.requestId);
  const start = performance.now();
  const result = await entry(event, context);
  const ms = performance.now() - start;
  return { status: result.statusCode ?? 200, body: result.body ?? '', ms };
}

/** The answer's duration, once its status is the expected one. */
export function timeOf(call: ApiCall, answer: Answer): number {
  if (answer.status !== call.status)
    throw new Error(
      `${call.method} ${call.path}: expected ${call.status}, got ${answer.status}: ${answer.body.slice(0, 300)}`,
    );
  return answer.ms;
}
