/**
 * `ralph dashboard`'s server on loopback: it answers only requests addressed to its own
 * loopback name, so a page elsewhere whose host name is re-pointed at 127.0.0.1 (DNS
 * rebinding) cannot read the runs.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DATA_PATH,
  startDashboardServer,
  type DashboardServer,
} from '../../bin/cli/dashboard/dashboard-server.js';

let server: DashboardServer;
beforeAll(async () => {
  server = await startDashboardServer({
    port: 0,
    read: async (view) => ({ view, title: 'every run', live: false, runs: [], charts: [] }),
    onError: (error) => {
      throw error;
    },
  });
});
afterAll(async () => {
  await server.close();
});

/** GET `path` from the server with `host` as the Host header. */
function get(path: string, host: string): Promise<{ status: number; body: string }> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const asked = request(
      { host: '127.0.0.1', port, path, headers: { host: host.replace('PORT', port) } },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    asked.on('error', reject);
    asked.end();
  });
}

describe('Function: startDashboardServer', () => {
  it.each(['127.0.0.1:PORT', 'localhost:PORT'])(
    'answers a request addressed to %s',
    async (host) => {
      const answer = await get(DATA_PATH, host);
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ title: 'every run', runs: [] });
    },
  );

  it.each(['attacker.example:PORT', 'attacker.example', '127.0.0.1:1'])(
    'refuses a request addressed to %s (421), reading nothing',
    async (host) => {
      const answer = await get(DATA_PATH, host);
      expect(answer.status).toBe(421);
      expect(answer.body).toMatch(/answers only 127\.0\.0\.1:\d+/);
    },
  );
});
