import { describe, expect, it } from 'vitest';
import { apiRouter } from '../../lambdas/api/router.js';
import { json } from '../../lambdas/api/http.js';
import { apiGatewayEvent, lambdaContext } from '../../local/api-server/api-event.js';

function event(method: string, path: string) {
  return apiGatewayEvent(
    {
      method,
      url: new URL(path, 'https://api.example.test'),
      headers: {},
      body: Buffer.alloc(0),
      sourceIp: '203.0.113.1',
      accessKeyId: 'AKIDEXAMPLE',
    },
    new Date('2026-11-26T12:00:00Z'),
  );
}

describe('Function: apiRouter', () => {
  it('answers an unexpected failure with a generic 500 and logs the cause with the request id', async () => {
    // Arrange
    const logged: Record<string, unknown>[] = [];
    const entry = apiRouter(
      {
        getRun: async () => {
          throw new Error('connection string postgres://admin:hunter2@db');
        },
      },
      { error: (_message, details) => logged.push(details) },
    );
    const request = event('GET', '/runs/r1');

    // Act
    const result = await entry(request, lambdaContext('req-1'));

    // Assess
    expect(result.statusCode).toBe(500);
    expect(result.headers?.['content-type']).toBe('application/problem+json');
    expect(result.body).not.toContain('hunter2');
    expect(logged).toEqual([
      expect.objectContaining({
        requestId: request.requestContext.requestId,
        route: 'GET /runs/{id}',
      }),
    ]);
  });

  it('passes path parameters decoded, and refuses unknown routes and methods as problems', async () => {
    // Arrange
    const entry = apiRouter({ getRun: async ({ params }) => json(200, params) });

    // Act
    const found = await entry(event('GET', '/runs/a%2Eb'), lambdaContext('r'));
    const missing = await entry(event('GET', '/nothing'), lambdaContext('r'));
    const method = await entry(event('DELETE', '/runs/a'), lambdaContext('r'));

    // Assess
    expect(JSON.parse(found.body!)).toEqual({ id: 'a.b' });
    expect([missing.statusCode, JSON.parse(missing.body!).code]).toEqual([404, 'NO_SUCH_ROUTE']);
    expect(method.headers?.['content-type']).toBe('application/problem+json');
    // As API Gateway: a method no route takes is no route at all.
    expect(method.statusCode).toBe(404);
  });
});
