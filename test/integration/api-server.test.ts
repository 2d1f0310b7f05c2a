import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signRequest } from '../../lambdas/adapters/sigv4.js';
import { apiRouter } from '../../lambdas/api/router.js';
import { json } from '../../lambdas/api/http.js';
import { startApiServer, type ApiServer } from '../../local/api-server/api-server.js';

const credential = { accessKeyId: 'RALPHLOCALTHROTTLE', secretAccessKey: 'throttle-secret' };
const region = 'eu-west-1';

/** The local server on its own, over a router with one route: its gateway behaviour. */
describe('Function: startApiServer', () => {
  let server: ApiServer;
  let seen: { caller: string; body: unknown }[];

  beforeAll(async () => {
    seen = [];
    server = await startApiServer({
      entry: apiRouter({
        startRun: async ({ caller, event }) => {
          seen.push({ caller, body: event.body });
          return json(202, { ok: true });
        },
      }),
      credential,
      region,
      throttle: { rate: 1, burst: 2 },
    });
  });
  afterAll(async () => server.close());

  async function post(body: string) {
    const url = new URL('/runs', server.url);
    const headers = await signRequest(
      { method: 'POST', url, headers: { 'content-type': 'application/json' }, body },
      { credentials: credential, region },
    );
    return fetch(url, { method: 'POST', headers, body });
  }

  it('hands the handler the signed caller and the body, then throttles past the burst with 429', async () => {
    // Act
    const answers = [await post('{"a":1}'), await post('{"a":2}'), await post('{"a":3}')];

    // Assess
    expect(answers.map((answer) => answer.status)).toEqual([202, 202, 429]);
    expect(answers[2]!.headers.get('content-type')).toBe('application/problem+json');
    expect(answers[2]!.headers.get('retry-after')).toBe('1');
    expect(seen).toEqual([
      { caller: 'iam:arn:aws:iam::000000000000:user/ralph-serve', body: '{"a":1}' },
      { caller: 'iam:arn:aws:iam::000000000000:user/ralph-serve', body: '{"a":2}' },
    ]);
  });
});
