/**
 * The model double's Messages API route (`local/model-server/`) over HTTP: the answer's
 * shape, what it refuses as the API does, and scripted faults with their types and headers.
 */
import { describe, expect, it } from 'vitest';
import { fault } from '../../local/model-server/faults.js';
import type { ModelServer } from '../../local/model-server/server.js';
import { usePongModelServer } from '../support/model-adapters.js';

const MODEL = 'claude-sonnet-4-6';
let server: ModelServer;

usePongModelServer((started) => (server = started));

describe('Function: startModelServer', () => {
  async function post(body: unknown, headers: Record<string, string>, path = '/v1/messages') {
    const response = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return {
      status: response.status,
      body: (await response.json()) as unknown,
      headers: response.headers,
    };
  }
  const valid = { model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] };
  const auth = { 'x-api-key': 'k', 'anthropic-version': '2023-06-01' };

  it('answers in the Messages API shape', async () => {
    const { status, body, headers } = await post(valid, auth);
    expect(status).toBe(200);
    expect(headers.get('request-id')).toMatch(/^req_offline_/);
    expect(body).toEqual({
      id: expect.stringMatching(/^msg_offline_/),
      type: 'message',
      role: 'assistant',
      model: MODEL,
      content: [{ type: 'text', text: 'pong' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    });
  });

  it('refuses what the API refuses, in its error shape', async () => {
    expect(await post(valid, { 'anthropic-version': '2023-06-01' })).toMatchObject({
      status: 401,
      body: { type: 'error', error: { type: 'authentication_error' } },
    });
    expect(await post(valid, { 'x-api-key': 'k' })).toMatchObject({
      status: 400,
      body: {
        type: 'error',
        error: { type: 'invalid_request_error', message: 'anthropic-version header is required' },
      },
    });
    expect(await post('{not json', auth)).toMatchObject({ status: 400 });
    expect(await post({ ...valid, max_tokens: 0 }, auth)).toMatchObject({
      status: 400,
      body: { error: { message: 'max_tokens: must be a positive integer' } },
    });
    expect(
      await post({ ...valid, messages: [{ role: 'assistant', content: 'x' }] }, auth),
    ).toMatchObject({
      status: 400,
    });
    expect(await post(valid, auth, '/v1/complete')).toMatchObject({
      status: 404,
      body: { error: { type: 'not_found_error' } },
    });
  });

  it('scripts faults with their types and headers', async () => {
    server.script(fault.rateLimited(7), fault.overloaded(), fault.serverError());
    const limited = await post(valid, auth);
    expect(limited).toMatchObject({
      status: 429,
      body: { type: 'error', error: { type: 'rate_limit_error' } },
    });
    expect(limited.headers.get('retry-after')).toBe('7');
    expect(server.requests.at(-1)).toMatchObject({ status: 429 });
    expect((await post(valid, auth)).body).toMatchObject({ error: { type: 'overloaded_error' } });
    expect((await post(valid, auth)).body).toMatchObject({ error: { type: 'api_error' } });
    expect(server.pending()).toBe(0);
  });
});
