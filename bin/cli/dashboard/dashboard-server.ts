/**
 * `ralph dashboard`'s server: node:http on loopback only. `/` is the page of a view (every
 * run, `?run=ID`, `?project=P`), `/api/dashboard` (same query) its data as JSON, which the
 * page polls while a run in view is live.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InvalidInputError, NotFoundError } from '../../../lambdas/core/errors.js';
import type { DashboardData, DashboardView } from './dashboard-data.js';
import { dashboardPage } from './page-html.js';
import { CliError } from '../errors.js';
import { EXIT } from '../exit-codes.js';

export const DATA_PATH = '/api/dashboard';

export interface DashboardServer {
  url: string;
  close(): Promise<void>;
}

/** `read`: the data of a view (dashboardData over the store). */
export async function startDashboardServer(options: {
  port: number;
  read: (view: DashboardView) => Promise<DashboardData>;
  /** Told of a request that failed for a reason other than the request. */
  onError: (error: unknown) => void;
}): Promise<DashboardServer> {
  const server = createServer((request, response) => {
    // A page elsewhere whose name is re-pointed at 127.0.0.1 (DNS rebinding) would send
    // its own name: only this server's loopback names are answered.
    const { port } = server.address() as AddressInfo;
    if (!loopbackHosts(port).has(request.headers.host ?? ''))
      return send(response, 421, 'text/plain', `this server answers only 127.0.0.1:${port}`);
    void answer(request, response, options.read).catch((error: unknown) => {
      const status = statusOf(error);
      if (status === 500) options.onError(error);
      send(response, status, 'text/plain', (error as Error).message);
    });
  });
  // A page that keeps polling holds its connection open: closing must not wait for it.
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new CliError(
              `port ${options.port} is in use on 127.0.0.1: name another with --port, or --port 0 for a free one`,
              EXIT.notPossible,
            )
          : error,
      ),
    );
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function answer(
  request: IncomingMessage,
  response: ServerResponse,
  read: (view: DashboardView) => Promise<DashboardData>,
): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  if (request.method !== 'GET') return send(response, 405, 'text/plain', 'only GET is served');
  if (url.pathname !== '/' && url.pathname !== DATA_PATH)
    return send(response, 404, 'text/plain', `nothing at ${url.pathname}: try /`);
  const data = await read(viewOf(url.searchParams));
  if (url.pathname === DATA_PATH)
    return send(response, 200, 'application/json', JSON.stringify(data));
  const page = dashboardPage({
    data,
    poll: `${DATA_PATH}${url.search}`,
    status: data.live ? 'live · refreshing every 2 s' : 'no run in view is live',
  });
  send(response, 200, 'text/html; charset=utf-8', page);
}

/** The Host headers a browser sends to this server on loopback. */
function loopbackHosts(port: number): ReadonlySet<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
}

/** The view a query names: `run=ID`, `project=P`, or neither (every run). */
export function viewOf(query: URLSearchParams): DashboardView {
  const runId = query.get('run');
  const project = query.get('project');
  if (runId !== null && project !== null)
    throw new InvalidInputError('query', ['name a run or a project, not both']);
  if (runId !== null) return { kind: 'run', runId };
  if (project !== null) return { kind: 'project', project };
  return { kind: 'all' };
}

/** 404 for a run that does not exist, 400 for a query that names neither well, else 500. */
function statusOf(error: unknown): number {
  if (error instanceof NotFoundError) return 404;
  if (error instanceof InvalidInputError) return 400;
  return 500;
}

function send(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, {
    'content-type': type,
    'cache-control': 'no-store',
    // The page runs only what it carries, and talks only to this server.
    'content-security-policy':
      "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'",
  });
  response.end(body);
}
