/**
 * The model test double: a local HTTP server that speaks the Anthropic Messages API well
 * enough for the real `@anthropic-ai/sdk` (pointed at it with `baseURL`). It checks what
 * the API checks first (a key in `x-api-key` or `authorization: Bearer`, which is where
 * SDK 1.x puts `apiKey`; `anthropic-version`; a JSON body with `model`,
 * `max_tokens` and `messages`), answers in the API's shapes, and can be scripted per test
 * with faults: error statuses (429 with `retry-after`, 529, 500, ...), answers slower than
 * the client's timeout, dropped connections and unusable answers. Without a script step it
 * answers with its responder: by default the deterministic offline judge
 * (`local/offline-judge/`), so the local stack runs without an API key.
 *
 * The same server also speaks Bedrock's InvokeModel for Claude (`POST
 * /model/{modelId}/invoke`, see `local/bedrock-protocol.ts`), for `@anthropic-ai/bedrock-sdk`
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
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  BEDROCK_ERROR_STATUS,
  bedrockErrorResponse,
  bedrockFault,
  bedrockModelIdOf,
  checkBedrockAuth,
  checkBedrockBody,
  type BedrockRefusal,
  type SigV4Scope,
} from './bedrock-protocol.js';
import { offlineResponder } from './offline-judge/responder.js';

/** The API a request was addressed to: the Messages API, or Bedrock's InvokeModel. */
export type ModelProtocol = 'messages' | 'bedrock';

/** A Messages API request body, as far as the double reads it. */
export interface MessagesRequestBody {
  model: string;
  max_tokens: number;
  system?: string | { type: string; text?: string }[];
  messages: { role: 'user' | 'assistant'; content: string | { type: string; text?: string }[] }[];
  temperature?: number;
  [field: string]: unknown;
}

/** A request as the responder and script matchers see it, text flattened. */
export interface ModelServerRequest {
  body: MessagesRequestBody;
  headers: IncomingHttpHeaders;
  system: string;
  messages: { role: 'user' | 'assistant'; text: string }[];
  /** The text of the last user message. */
  lastUserText: string;
  /** The text of the first user message (the question, in a corrected conversation). */
  firstUserText: string;
  /** The API asked; for Bedrock, `body.model` is the path's model id. */
  protocol?: ModelProtocol;
}

/** What the server was sent, in arrival order (including requests it refused). */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  /** The status the server answered with; undefined for a dropped or abandoned request. */
  status?: number;
  /** Undefined for a path neither API serves. */
  protocol?: ModelProtocol;
  /** Bedrock: the model id of the path, decoded. */
  modelId?: string;
  /** Bedrock: the scope of the SigV4 `authorization` header, when the request was signed. */
  sigV4?: SigV4Scope;
}

export type Responder = (request: ModelServerRequest) => string;

type Match = (request: ModelServerRequest) => boolean;

/** One scripted answer; a step with `match` is used only by a request it matches. */
export type ScriptStep = (
  | {
      kind: 'error';
      status: number;
      type?: string;
      /** Bedrock's exception name; by default derived from the status. */
      bedrockType?: string;
      message?: string;
      headers?: Record<string, string>;
    }
  | { kind: 'text'; text: string; stopReason?: string }
  | { kind: 'slow'; delayMs: number; then?: ScriptStep }
  | { kind: 'drop' }
) & { match?: Match };

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

/** Script steps for the faults the adapter and the judge must survive. */
export const fault = {
  /** Any error status, in the API's error shape. */
  status: (
    status: number,
    options: {
      type?: string;
      bedrockType?: string;
      message?: string;
      headers?: Record<string, string>;
    } = {},
  ): ScriptStep => ({ kind: 'error', status, ...options }),
  /**
   * A Bedrock exception with the status Bedrock gives it (e.g. `ModelNotReadyException`,
   * 429); a Messages API request gets the status in the API's shape.
   */
  bedrock: (type: string, message?: string): ScriptStep => ({
    kind: 'error',
    status: BEDROCK_ERROR_STATUS[type] ?? 400,
    bedrockType: type,
    ...(message === undefined ? {} : { message }),
  }),
  /** 429 rate_limit_error with `retry-after` (seconds; fractions allowed for tests). */
  rateLimited: (retryAfterSeconds?: number): ScriptStep => ({
    kind: 'error',
    status: 429,
    message: 'Number of request tokens has exceeded your per-minute rate limit',
    headers: retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) },
  }),
  /** 529 overloaded_error. */
  overloaded: (): ScriptStep => ({ kind: 'error', status: 529, message: 'Overloaded' }),
  /** 500 api_error. */
  serverError: (): ScriptStep => ({ kind: 'error', status: 500, message: 'Internal server error' }),
  /** Answers only after `delayMs` (then `then`, or the responder's answer). */
  slow: (delayMs: number, then?: ScriptStep): ScriptStep => ({
    kind: 'slow',
    delayMs,
    ...(then === undefined ? {} : { then }),
  }),
  /** Closes the connection without an answer. */
  drop: (): ScriptStep => ({ kind: 'drop' }),
  /** A 200 answer with exactly this text. */
  text: (text: string, stopReason?: string): ScriptStep => ({
    kind: 'text',
    text,
    ...(stopReason === undefined ? {} : { stopReason }),
  }),
  /** A 200 answer with `value` as JSON text. */
  json: (value: unknown): ScriptStep => ({ kind: 'text', text: JSON.stringify(value) }),
  /** A 200 answer that is not JSON (a judge answer cut off mid-string). */
  malformed: (): ScriptStep => ({
    kind: 'text',
    text: 'Here is my evaluation: {"gestalt": 4, "reasoning": "The story is cle',
  }),
  /** A well-formed judge answer whose gestalt is outside 1–5. */
  outOfRange: (gestalt = 7): ScriptStep => ({
    kind: 'text',
    text: JSON.stringify({
      gestalt,
      reasoning: 'scripted answer with an out-of-range score',
      strengths: [],
      weaknesses: [],
    }),
  }),
};

/**
 * Restricts a step to the requests `match` accepts (e.g. one artefact's prompt), so that
 * concurrent requests take the faults meant for them.
 *
 * @example
 * server.script(when((request) => request.firstUserText.includes(' id=story_2\n'), fault.malformed()));
 */
export function when(match: Match, step: ScriptStep): ScriptStep {
  return { ...step, match };
}

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
  let responder: Responder = options.responder ?? offlineResponder;
  let queue: ScriptStep[] = [];
  const requests: ReceivedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let counter = 0;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const received: ReceivedRequest = {
        method: req.method ?? '',
        path: (req.url ?? '').split('?')[0] ?? '',
        headers: req.headers,
        body: safeJson(raw),
      };
      requests.push(received);
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        received.status = status;
        sendJson(res, status, body, headers);
      };
      const modelId = received.method === 'POST' ? bedrockModelIdOf(received.path) : undefined;
      if (modelId === undefined && (received.method !== 'POST' || received.path !== '/v1/messages'))
        return send(
          404,
          errorBody('not_found_error', `no route ${received.method} ${received.path}`),
        );
      const protocol: ModelProtocol = modelId === undefined ? 'messages' : 'bedrock';
      received.protocol = protocol;
      const refuseBedrock = ({ status, type, message }: BedrockRefusal) => {
        const { body, headers } = bedrockErrorResponse(type, message);
        send(status, body, headers);
      };

      let body: MessagesRequestBody;
      if (modelId === undefined) {
        const apiKey = credentialOf(req.headers);
        if (!apiKey)
          return send(
            401,
            errorBody('authentication_error', 'x-api-key or authorization header is required'),
          );
        if (options.apiKey !== undefined && apiKey !== options.apiKey)
          return send(401, errorBody('authentication_error', 'invalid x-api-key'));
        if (!header(req.headers, 'anthropic-version'))
          return send(
            400,
            errorBody('invalid_request_error', 'anthropic-version header is required'),
          );
        const problem = checkBody(received.body);
        if (problem) return send(400, errorBody('invalid_request_error', problem));
        body = received.body as MessagesRequestBody;
      } else {
        received.modelId = modelId;
        const auth = checkBedrockAuth(req.headers);
        if ('status' in auth) return refuseBedrock(auth);
        if (auth.scope !== undefined) received.sigV4 = auth.scope;
        const refusal = checkBedrockBody(received.body);
        if (refusal) return refuseBedrock(refusal);
        body = { ...(received.body as MessagesRequestBody), model: modelId };
        const problem = checkBody(body);
        if (problem)
          return refuseBedrock({ status: 400, type: 'ValidationException', message: problem });
      }

      const request = { ...toServerRequest(body, req.headers), protocol };
      const index = queue.findIndex((step) => step.match === undefined || step.match(request));
      const step = index === -1 ? undefined : queue.splice(index, 1)[0];

      const perform = (current: ScriptStep | undefined): void => {
        if (res.destroyed || res.writableEnded) return;
        if (current === undefined) return answer(responder(request));
        switch (current.kind) {
          case 'error': {
            const message = current.message ?? `scripted ${current.status}`;
            if (protocol === 'bedrock') {
              const { status, type } = bedrockFault(current.status, current.bedrockType);
              const shaped = bedrockErrorResponse(type, message);
              return send(status, shaped.body, { ...shaped.headers, ...current.headers });
            }
            const type = current.type ?? ERROR_TYPES[current.status] ?? 'api_error';
            return send(current.status, errorBody(type, message), current.headers);
          }
          case 'text':
            return answer(current.text, current.stopReason);
          case 'drop':
            req.socket.destroy();
            return;
          case 'slow': {
            const timer = setTimeout(() => {
              timers.delete(timer);
              perform(current.then);
            }, current.delayMs);
            timers.add(timer);
            return;
          }
        }
      };
      const answer = (text: string, stopReason?: string) => {
        counter += 1;
        // Like the API, stop at max_tokens (about four characters a token).
        const limit = body.max_tokens * 4;
        const cut = stopReason === undefined && text.length > limit;
        const shown = cut ? text.slice(0, limit) : text;
        const usage = {
          input_tokens: estimateTokens(
            request.system + request.messages.map((message) => message.text).join(''),
          ),
          output_tokens: estimateTokens(shown),
        };
        send(
          200,
          {
            id: `msg_offline_${String(counter).padStart(6, '0')}`,
            type: 'message',
            role: 'assistant',
            model: body.model,
            content: [{ type: 'text', text: shown }],
            stop_reason: stopReason ?? (cut ? 'max_tokens' : 'end_turn'),
            stop_sequence: null,
            usage,
          },
          protocol === 'bedrock'
            ? {
                'x-amzn-requestid': randomUUID(),
                'x-amzn-bedrock-input-token-count': String(usage.input_tokens),
                'x-amzn-bedrock-output-token-count': String(usage.output_tokens),
              }
            : { 'request-id': `req_offline_${randomUUID()}` },
        );
      };
      perform(step);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, LOOPBACK, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const url = `http://${LOOPBACK}:${(server.address() as AddressInfo).port}`;
  let stopped: Promise<void> | undefined;

  return {
    url,
    script: (...steps) => {
      queue.push(...steps);
    },
    respondWith: (next) => {
      responder = next;
    },
    requests,
    pending: () => queue.length,
    reset: () => {
      queue = [];
      requests.length = 0;
    },
    stop: () => {
      stopped ??= new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return stopped;
    },
  };
}

function toServerRequest(
  body: MessagesRequestBody,
  headers: IncomingHttpHeaders,
): ModelServerRequest {
  const messages = body.messages.map((message) => ({
    role: message.role,
    text: textOf(message.content),
  }));
  const userTexts = messages.filter((message) => message.role === 'user').map((m) => m.text);
  return {
    body,
    headers,
    system: body.system === undefined ? '' : textOf(body.system),
    messages,
    lastUserText: userTexts.at(-1) ?? '',
    firstUserText: userTexts[0] ?? '',
  };
}

function textOf(content: string | { type: string; text?: string }[]): string {
  if (typeof content === 'string') return content;
  return content
    .flatMap((block) => (block.type === 'text' && block.text ? [block.text] : []))
    .join('\n');
}

/** What the API would refuse with 400 invalid_request_error, or undefined. */
function checkBody(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return 'the body is not a JSON object';
  const candidate = body as Record<string, unknown>;
  if (typeof candidate.model !== 'string' || candidate.model === '') return 'model: field required';
  if (!Number.isInteger(candidate.max_tokens) || (candidate.max_tokens as number) < 1)
    return 'max_tokens: must be a positive integer';
  if (!Array.isArray(candidate.messages) || candidate.messages.length === 0)
    return 'messages: at least one message is required';
  for (const [index, message] of (candidate.messages as unknown[]).entries()) {
    const { role, content } = (message ?? {}) as Record<string, unknown>;
    if (role !== 'user' && role !== 'assistant')
      return `messages.${index}.role: must be "user" or "assistant"`;
    if (typeof content !== 'string' && !Array.isArray(content))
      return `messages.${index}.content: must be a string or a list of blocks`;
    if (typeof content === 'string' && content === '')
      return `messages.${index}: text content blocks must be non-empty`;
  }
  if ((candidate.messages as { role: string }[])[0]?.role !== 'user')
    return 'messages: the first message must use the "user" role';
  return undefined;
}

function errorBody(type: string, message: string) {
  return { type: 'error', error: { type, message } };
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string>,
): void {
  if (res.destroyed || res.writableEnded) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/**
 * The caller's key: `x-api-key`, or `authorization: Bearer <key>`, which is how
 * `@anthropic-ai/sdk` 1.x sends an `apiKey`.
 */
function credentialOf(headers: IncomingHttpHeaders): string | undefined {
  const apiKey = header(headers, 'x-api-key');
  if (apiKey) return apiKey;
  const bearer = /^Bearer\s+(\S+)$/i.exec(header(headers, 'authorization') ?? '');
  return bearer?.[1];
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}
