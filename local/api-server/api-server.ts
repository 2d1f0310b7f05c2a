/**
 * The Run API on this machine: a loopback HTTP server that checks each request's SigV4
 * signature as API Gateway's IAM authorizer would (except on the webhook routes, which check
 * their senders themselves, as deployed), turns it into the HTTP API event a Lambda
 * receives, and answers with what the same router returns. Limits are API Gateway's: a body
 * over 10 MB is refused before the handler sees it, and a token bucket stands in for stage
 * throttling (`429`).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback } from '../loopback/listen.js';
import type { ApiEntry } from '../../lambdas/api/router.js';
import { problemFor, HttpProblem, PROBLEM_CONTENT_TYPE } from '../../lambdas/api/problem.js';
import { apiGatewayEvent, lambdaContext } from './api-event.js';
import { senderAuthenticated } from '../../lambdas/api/route-table.js';
import { checkSignature, type LocalCredential } from './signature-check.js';
import { TokenBucket } from './token-bucket.js';

/** API Gateway's own payload limit for HTTP APIs. */
const GATEWAY_BODY_LIMIT_BYTES = 10 * 1024 * 1024;

export interface ApiServerOptions {
  entry: ApiEntry;
  credential: LocalCredential;
  region: string;
  /** 0 (the default) takes a free port. */
  port?: number;
  /** Requests per second and burst, as the stage throttle. @default { rate: 50, burst: 100 } */
  throttle?: { rate: number; burst: number };
}

export interface ApiServer {
  /** `http://127.0.0.1:PORT` */
  url: string;
  close(): Promise<void>;
}

export async function startApiServer(options: ApiServerOptions): Promise<ApiServer> {
  const bucket = new TokenBucket(options.throttle ?? { rate: 50, burst: 100 });
  const server = createServer((request, response) => {
    serve(request, response, options, bucket).catch((error: unknown) => {
      send(response, problemAnswer(error, request.url));
    });
  });
  server.keepAliveTimeout = 5_000;
  return listenOnLoopback(server, options.port);
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

async function serve(
  request: IncomingMessage,
  response: ServerResponse,
  options: ApiServerOptions,
  bucket: TokenBucket,
): Promise<void> {
  const now = new Date();
  if (!bucket.take(now.getTime()))
    return send(
      response,
      problemAnswer(
        new HttpProblem(429, 'throttled: retry later', 'THROTTLED', { 'retry-after': '1' }),
        request.url,
      ),
    );
  const body = await readBody(request);
  const headers = headersOf(request);
  const url = new URL(request.url ?? '/', `http://${headers.host ?? '127.0.0.1'}`);
  const method = request.method ?? 'GET';
  // A webhook route has no authorizer in front of it: the route checks the sender itself.
  const verdict = senderAuthenticated(method, url.pathname)
    ? { ok: true as const, accessKeyId: undefined }
    : await checkSignature({ method, url, headers, body }, options.credential, options.region, now);
  if (!verdict.ok)
    return send(
      response,
      problemAnswer(
        new HttpProblem(
          verdict.status,
          verdict.reason,
          verdict.status === 401 ? 'UNSIGNED' : 'BAD_SIGNATURE',
        ),
        url.pathname,
      ),
    );
  const event = apiGatewayEvent(
    {
      method,
      url,
      headers,
      body,
      sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
      accessKeyId: verdict.accessKeyId,
    },
    now,
  );
  const result = await options.entry(event, lambdaContext(event.requestContext.requestId));
  send(response, {
    status: result.statusCode ?? 200,
    headers: Object.fromEntries(
      Object.entries(result.headers ?? {}).map(([name, value]) => [name, String(value)]),
    ),
    body: Buffer.from(result.body ?? '', result.isBase64Encoded ? 'base64' : 'utf8'),
  });
}

/** The body, refused with `413` past API Gateway's limit (without reading the rest). */
async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > GATEWAY_BODY_LIMIT_BYTES)
      throw new HttpProblem(
        413,
        `the body is over API Gateway's ${GATEWAY_BODY_LIMIT_BYTES} bytes`,
        'BODY_TOO_LARGE',
      );
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Lower-case names; repeated headers joined with commas, as API Gateway does. */
function headersOf(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headersDistinct))
    if (value) headers[name.toLowerCase()] = value.join(',');
  return headers;
}

function problemAnswer(error: unknown, instance: string | undefined): Answer {
  const { problem, headers } = problemFor(error, instance);
  return {
    status: problem.status,
    headers: { 'content-type': PROBLEM_CONTENT_TYPE, ...headers },
    body: Buffer.from(JSON.stringify(problem)),
  };
}

function send(response: ServerResponse, answer: Answer): void {
  if (response.headersSent) return void response.end();
  response.writeHead(answer.status, {
    ...answer.headers,
    'content-length': String(answer.body.length),
  });
  response.end(answer.body);
}
