/**
 * The model test double: a local HTTP server that speaks the Anthropic Messages API well
 * enough for the real `@anthropic-ai/sdk` (pointed at it with `baseURL`). It checks what
 * the API checks first (a key in `x-api-key` or `authorization: Bearer`, which is where
 * SDK 1.x puts `apiKey`; `anthropic-version`; a JSON body with `model`,
 * `max_tokens` and `messages`), answers in the API's shapes, and can be scripted per test
 * with faults (`faults.ts`): error statuses (429 with `retry-after`, 529, 500, ...),
 * answers slower than the client's timeout, dropped connections and unusable answers.
 * Without a script step it answers with its responder: by default the deterministic
 * offline judge (`local/offline-judge/`), so the local stack runs without an API key.
 *
 * The same server also speaks Bedrock's InvokeModel for Claude (`POST
 * /model/{modelId}/invoke`, see `bedrock-api.ts`), for `@anthropic-ai/bedrock-sdk`
 * pointed at it with `baseURL`: it wants a SigV4 `authorization` (whose scope it records,
 * without verifying the signature) or a Bedrock API key, `anthropic_version:
 * 'bedrock-2023-05-31'` in the body and no `model` there; it answers with the Messages API
 * body, and with Bedrock's error shape and statuses for the same script steps (529 becomes
 * 503 ServiceUnavailableException).
 *
 * @example
 * const server = await startModelServer();
 * server.script(fault.rateLimited(0), fault.malformed());
 * const model = new AnthropicModelClient({ apiKey: 'offline', baseURL: server.url });
 * // ... first call: 429 then the offline judge's answer; second: a malformed answer
 * await server.stop();
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { offlineResponder } from '../offline-judge/responder.js';
import { handleRequest } from './handle-request.js';
import { onBody } from './http.js';
import type { ReceivedRequest } from './received-request.js';
import type { Responder } from './request.js';
import { ScriptQueue, type ScriptStep } from './script.js';
import type { ServerState } from './server-state.js';

export interface ModelServerOptions {
  /** Answers requests no script step takes. @default offlineResponder */
  responder?: Responder;
  /** When set, a Messages API key must equal it; otherwise any non-empty key is accepted. */
  apiKey?: string;
}

export interface ModelServer {
  /** The `baseURL` for the SDK: `http://127.0.0.1:PORT`. */
  url: string;
  /** Queues steps; each request takes the first queued step it matches. */
  script(...steps: ScriptStep[]): void;
  /** Replaces the responder for requests without a script step. */
  respondWith(responder: Responder): void;
  /** Everything received so far. */
  readonly requests: readonly ReceivedRequest[];
  /** Script steps not yet used. */
  pending(): number;
  /** Forgets the script and the received requests (the responder stays). */
  reset(): void;
  /** Closes the server and every connection, cancelling slow answers; safe to call twice. */
  stop(): Promise<void>;
}

const LOOPBACK = '127.0.0.1';

/**
 * Starts the double on a free loopback port.
 *
 * @example
 * const server = await startModelServer();
 * server.script(fault.overloaded());
 * const client = new Anthropic({ apiKey: 'offline', baseURL: server.url, maxRetries: 0 });
 */
export async function startModelServer(options: ModelServerOptions = {}): Promise<ModelServer> {
  const state: ServerState = {
    apiKey: options.apiKey,
    requests: [],
    script: new ScriptQueue(),
    timers: new Set(),
    responder: options.responder ?? offlineResponder,
    answered: 0,
  };
  const server = createServer((req, res) =>
    onBody(req, (raw) => handleRequest(state, req, res, raw)),
  );
  await listen(server);
  let stopped: Promise<void> | undefined;
  return {
    url: `http://${LOOPBACK}:${(server.address() as AddressInfo).port}`,
    script: (...steps) => state.script.push(...steps),
    respondWith: (next) => {
      state.responder = next;
    },
    requests: state.requests,
    pending: () => state.script.pending,
    reset: () => {
      state.script.clear();
      state.requests.length = 0;
    },
    stop: () => {
      stopped ??= close(server, state.timers);
      return stopped;
    },
  };
}

function listen(server: Server): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, LOOPBACK, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Cancels slow answers, then closes the server and every connection. */
function close(server: Server, timers: Set<NodeJS.Timeout>): Promise<void> {
  return new Promise<void>((resolve) => {
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
