/**
 * One request through the model double: recorded, routed to its API, checked as that API
 * checks it, then answered by the first script step it matches or by the responder.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseJsonOr } from '../offline-judge/parse-json.js';
import { sendJson, type HttpAnswer } from './http.js';
import { notFound } from './messages-api.js';
import { performStep } from './perform-step.js';
import type { ReceivedRequest } from './received-request.js';
import { toServerRequest } from './request.js';
import { routeOf } from './routes.js';
import type { ServerState } from './server-state.js';

/**
 * Handles `req`, whose whole body is `raw`.
 *
 * @example
 * createServer((req, res) => onBody(req, (raw) => handleRequest(state, req, res, raw)));
 */
export function handleRequest(
  state: ServerState,
  req: IncomingMessage,
  res: ServerResponse,
  raw: string,
): void {
  const received: ReceivedRequest = {
    method: req.method ?? '',
    path: (req.url ?? '').split('?')[0] ?? '',
    headers: req.headers,
    body: parseJsonOr(raw, raw),
  };
  state.requests.push(received);
  const send = (answer: HttpAnswer) => {
    received.status = answer.status;
    sendJson(res, answer);
  };
  const api = routeOf(received.method, received.path, state.apiKey);
  if (api === undefined) return send(notFound(received.method, received.path));
  received.protocol = api.protocol;
  if (api.modelId !== undefined) received.modelId = api.modelId;
  const admission = api.admit(req.headers, received.body);
  if (admission.sigV4 !== undefined) received.sigV4 = admission.sigV4;
  if (!admission.admitted) return send(admission.refusal);
  const request = toServerRequest(admission.body, req.headers, api.protocol);
  const exchange = {
    request,
    api,
    send,
    closed: () => res.destroyed || res.writableEnded,
    drop: () => req.socket.destroy(),
  };
  performStep(state.script.take(request), exchange, state);
}
