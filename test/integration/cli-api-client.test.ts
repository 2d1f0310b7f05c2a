import { createServer, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { listenOnLoopback, type Listening } from '../../local/loopback/listen.js';
import { ApiClient } from '../../bin/cli/remote/api-client.js';
import { CliError } from '../../bin/cli/errors.js';

/**
 * The CLI's Run API client against a scripted HTTP server (a stand-in for API Gateway at the
 * edge): which failures it retries, and how refusals become exit codes.
 */
describe('Class: ApiClient', () => {
  let server: Listening;
  let answers: { status: number; body: unknown; headers?: Record<string, string> }[];
  let received: IncomingMessage[];

  beforeAll(async () => {
    server = await listenOnLoopback(
      createServer((request, response) => {
        received.push(request);
        request.resume();
        const answer = answers.shift() ?? { status: 500, body: {} };
        response.writeHead(answer.status, {
          'content-type': answer.status >= 400 ? 'application/problem+json' : 'application/json',
          ...answer.headers,
        });
        response.end(JSON.stringify(answer.body));
      }),
    );
  });
  afterAll(async () => server.close());
  beforeEach(() => {
    answers = [];
    received = [];
  });

  const client = () =>
    new ApiClient({
      endpoint: new URL(server.url),
      identity: { credentials: { accessKeyId: 'AK', secretAccessKey: 'SK' }, region: 'eu-west-1' },
      backoffMs: 1,
      attempts: 4,
    });
  const problem = (status: number, detail: string, errors?: string[]) => ({
    status,
    body: { type: 'about:blank', title: 'x', status, detail, ...(errors ? { errors } : {}) },
  });

  it('retries a read through 503 and 429 (honouring Retry-After), then answers', async () => {
    answers = [
      problem(503, 'busy'),
      { ...problem(429, 'slow down'), headers: { 'retry-after': '0' } },
      { status: 200, body: { ok: true } },
    ];

    const answer = await client().json(
      { method: 'GET', path: '/runs', retry: 'any-failure' },
      z.object({ ok: z.boolean() }),
    );

    expect(answer).toEqual({ ok: true });
    expect(received).toHaveLength(3);
    expect(received[0]!.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AK\/\d{8}\/eu-west-1\/execute-api\//,
    );
  });

  it('does not repeat a cancel the gateway passed on (502), only one it refused (503)', async () => {
    answers = [problem(502, 'bad gateway')];
    await expect(
      client().send({ method: 'POST', path: '/runs/r1/cancel', retry: 'refused-only' }),
    ).rejects.toThrow(CliError);
    expect(received).toHaveLength(1);

    answers = [problem(503, 'busy'), { status: 200, body: {} }];
    received = [];
    await client().send({ method: 'POST', path: '/runs/r1/cancel', retry: 'refused-only' });
    expect(received).toHaveLength(2);
  });

  it('gives up after its attempts, saying what failed', async () => {
    answers = [problem(503, 'a'), problem(503, 'b'), problem(503, 'c'), problem(503, 'still busy')];
    await expect(
      client().send({ method: 'GET', path: '/runs', retry: 'any-failure' }),
    ).rejects.toThrow(/503 still busy/);
    expect(received).toHaveLength(4);
  });

  it('keeps the fields a refusal names, for --json', async () => {
    answers = [problem(400, 'request body is invalid: prd: x', ['prd: x', 'confg: unknown key'])];
    const error = await client()
      .send({ method: 'POST', path: '/runs', retry: 'any-failure' })
      .catch((caught: unknown) => caught);
    expect((error as CliError).issues).toEqual(['prd: x', 'confg: unknown key']);
  });

  it.each([
    [
      problem(400, 'request body is invalid: prd.userStories: too small', [
        'prd.userStories: too small',
      ]),
      2,
      /request body is invalid:\n {2}prd\.userStories: too small/,
    ],
    [
      problem(422, 'this Idempotency-Key was used with another request body'),
      2,
      /another request body/,
    ],
    [problem(404, 'run r1 does not exist'), 4, /run r1 does not exist/],
    [problem(409, 'run r1 has already ended (completed)'), 4, /already ended/],
    [
      problem(403, 'the signature does not match'),
      70,
      /^not authorized \(403\): the signature does not match/,
    ],
  ])(
    'turns a refusal (%#) into the exit code local mode uses',
    async (answer, exitCode, message) => {
      answers = [answer];
      const error = await client()
        .send({ method: 'GET', path: '/runs/r1', retry: 'any-failure' })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(CliError);
      expect((error as CliError).exitCode).toBe(exitCode);
      expect((error as CliError).message).toMatch(message);
    },
  );
});
