/**
 * The HTTP plumbing of the model double: reading a request's body, reading a header, and
 * sending a JSON answer (unless the connection is already gone).
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';

/** An answer to send: a status, a JSON body, and headers beside the content ones. */
export interface HttpAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** The first value of a header, or undefined. */
export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Calls `done` with the whole body of `req`, as UTF-8 text, once it has arrived. */
export function onBody(req: IncomingMessage, done: (raw: string) => void): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
}

/** Writes `answer` as JSON; does nothing on a connection that is closed or answered. */
export function sendJson(res: ServerResponse, answer: HttpAnswer): void {
  if (res.destroyed || res.writableEnded) return;
  const text = JSON.stringify(answer.body);
  res.writeHead(answer.status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...answer.headers,
  });
  res.end(text);
}
