/**
 * AnthropicModelClient with the real `@anthropic-ai/sdk` against the model double
 * (local/model-server/): the retry policy, timeouts and error mapping, over HTTP.
 */
import { describe, expect, it } from 'vitest';
import {
  AnthropicModelClient,
  ModelRequestRejectedError,
  ModelUnavailableError,
  type AnthropicModelClientOptions,
} from '../../lambdas/adapters/anthropic.js';
import { RalphError, TransientError } from '../../lambdas/core/errors.js';
import type { ModelRequest } from '../../lambdas/ports.js';
import { fault } from '../../local/model-server/faults.js';
import { startModelServer, type ModelServer } from '../../local/model-server/server.js';
import { failureOf, modelRequest, usePongModelServer } from '../support/model-adapters.js';
import { itTimesOutAndStopsOnAbort } from '../support/model-timeouts.js';

const MODEL = 'claude-sonnet-4-6';
let server: ModelServer;

usePongModelServer((started) => (server = started));

function client(options: Partial<AnthropicModelClientOptions> = {}): AnthropicModelClient {
  return new AnthropicModelClient({
    apiKey: 'test-key',
    baseURL: server.url,
    backoff: { initialDelayMs: 2, maxDelayMs: 10 },
    ...options,
  });
}

const request = (overrides: Partial<ModelRequest> = {}) => modelRequest(MODEL, overrides);

describe('Class: AnthropicModelClient', () => {
  describe('Method: complete', () => {
    it('asks through the Messages API and returns text, usage and one attempt', async () => {
      // Act
      const response = await client().complete(request());

      // Assess
      expect(response).toEqual({
        text: 'pong',
        model: MODEL,
        stopReason: 'end_turn',
        usage: { inputTokens: expect.any(Number), outputTokens: 1 },
        attempts: 1,
      });
      const [received] = server.requests;
      expect(received).toMatchObject({ method: 'POST', path: '/v1/messages', status: 200 });
      expect(received?.headers['anthropic-version']).toEqual(expect.any(String));
      expect(received?.headers.authorization).toBe('Bearer test-key');
      expect(received?.headers['x-stainless-retry-count']).toBe('0');
      expect(received?.body).toEqual({
        model: MODEL,
        max_tokens: 64,
        system: 'Answer in one word.',
        messages: [{ role: 'user', content: 'ping' }],
      });
    });

    it('sends a temperature only when asked to', async () => {
      await client().complete(request({ temperature: 0.2 }));
      expect(server.requests[0]?.body).toMatchObject({ temperature: 0.2 });
    });

    it('retries a 429 and reports two attempts', async () => {
      // Prepare
      server.script(fault.rateLimited());

      // Act
      const response = await client().complete(request());

      // Assess
      expect(response.attempts).toBe(2);
      expect(server.requests.map((received) => received.status)).toEqual([429, 200]);
    });

    it("waits out the server's retry-after", async () => {
      // Prepare
      server.script(fault.rateLimited(0.3));
      const started = performance.now();

      // Act
      const response = await client().complete(request());

      // Assess
      expect(response.attempts).toBe(2);
      expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    });

    it('gives up at once when retry-after is beyond what a call may wait', async () => {
      // Prepare
      server.script(fault.rateLimited(120));

      // Act
      const error = await failureOf(client({ maxRetryAfterMs: 1_000 }).complete(request()));

      // Assess
      expect(error).toBeInstanceOf(ModelUnavailableError);
      expect(error).toMatchObject({ status: 429, attempts: 1 });
      expect(error.message).toContain('retry after 120 s');
      expect(server.requests).toHaveLength(1);
    });

    it('retries a 529 overloaded answer', async () => {
      server.script(fault.overloaded());
      const response = await client().complete(request());
      expect(response.attempts).toBe(2);
      expect(server.requests.map((received) => received.status)).toEqual([529, 200]);
    });

    it('throws a TransientError with the status after three 500s', async () => {
      // Prepare
      server.script(
        fault.serverError(),
        fault.serverError(),
        fault.serverError(),
        fault.serverError(),
      );

      // Act
      const error = await failureOf(client().complete(request()));

      // Assess
      expect(error).toBeInstanceOf(TransientError);
      expect(error.name).toBe('TransientError');
      expect(error).toMatchObject({ code: 'TRANSIENT', status: 500, attempts: 3 });
      expect(error.message).toBe(
        `model ${MODEL} unavailable after 3 tries: 500 api_error: Internal server error`,
      );
      expect(server.requests).toHaveLength(3);
      expect(server.pending()).toBe(1);
    });

    it('honours maxTries', async () => {
      server.script(fault.overloaded(), fault.overloaded());
      const error = await failureOf(client({ maxTries: 2 }).complete(request()));
      expect(error).toMatchObject({ status: 529, attempts: 2 });
      expect(server.requests).toHaveLength(2);
    });

    itTimesOutAndStopsOnAbort(
      () => server,
      (overrides) => client().complete(request(overrides)),
    );

    it('retries a dropped connection', async () => {
      server.script(fault.drop());
      const response = await client().complete(request());
      expect(response.attempts).toBe(2);
    });

    it('fails with a TransientError when nothing listens', async () => {
      // Prepare
      const gone = await startModelServer();
      await gone.stop();

      // Act
      const error = await failureOf(client({ baseURL: gone.url }).complete(request()));

      // Assess
      expect(error).toBeInstanceOf(ModelUnavailableError);
      expect(error).toMatchObject({ attempts: 3 });
      expect(error.message).toContain('connection failed');
    });

    it('does not retry a refused request (400)', async () => {
      // Prepare
      server.script(
        fault.status(400, { message: 'prompt is too long: 210000 tokens > 200000 maximum' }),
      );

      // Act
      const error = await failureOf(client().complete(request()));

      // Assess
      expect(error).toBeInstanceOf(ModelRequestRejectedError);
      expect(error).toBeInstanceOf(RalphError);
      expect(error).not.toBeInstanceOf(TransientError);
      expect(error).toMatchObject({ code: 'MODEL_REQUEST_REJECTED', status: 400 });
      expect(error.message).toContain('invalid_request_error: prompt is too long');
      expect(server.requests).toHaveLength(1);
    });

    it('does not retry a wrong key (401)', async () => {
      const guarded = await startModelServer({ apiKey: 'right', responder: () => 'pong' });
      try {
        const error = await failureOf(
          client({ baseURL: guarded.url, apiKey: 'wrong' }).complete(request()),
        );
        expect(error).toMatchObject({ code: 'MODEL_REQUEST_REJECTED', status: 401 });
        expect(guarded.requests).toHaveLength(1);
        await expect(
          client({ baseURL: guarded.url, apiKey: 'right' }).complete(request()),
        ).resolves.toMatchObject({ text: 'pong' });
      } finally {
        await guarded.stop();
      }
    });

    it('reports an answer cut at max_tokens', async () => {
      server.respondWith(() => 'a long answer that will not fit in five tokens');
      try {
        const response = await client().complete(request({ maxTokens: 5 }));
        expect(response).toMatchObject({ stopReason: 'max_tokens', text: 'a long answer that w' });
        expect(response.usage.outputTokens).toBe(5);
      } finally {
        server.respondWith(() => 'pong');
      }
    });

    it('needs a key or a client', () => {
      expect(() => new AnthropicModelClient({})).toThrow('needs an apiKey or a client');
    });
  });
});
