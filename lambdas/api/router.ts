/**
 * The Run API's router (Powertools event handler): it registers the handlers it is given
 * under their routes in route-table.ts and answers everything else — an unknown path, a
 * wrong method, any error a handler throws — as problem+json. A deployed function gets the
 * handlers of its own group; the local server gets them all.
 */
import { Router } from '@aws-lambda-powertools/event-handler/http';
import type {
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  Context,
} from 'aws-lambda';
import { HttpProblem } from './problem.js';
import { ALL_ROUTES, type ApiRouteId } from './route-table.js';
import { callerOf, headersOf, problem } from './http.js';

/** What a route handler gets: the event, its path parameters, query, headers and caller. */
export interface ApiRequest {
  event: APIGatewayProxyEventV2;
  params: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string | undefined>;
  caller: string;
  /** The Lambda context (its remaining time bounds an in-progress idempotency record). */
  context: Context;
}

export type ApiHandler = (request: ApiRequest) => Promise<Response>;
export type ApiHandlers = Partial<Record<ApiRouteId, ApiHandler>>;

/** `/runs/{id}` → `/runs/:id`, the router's syntax. */
const routerPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1') as `/${string}`;

export type ApiEntry = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyStructuredResultV2>;

/** Where failures the caller only sees as a generic `500` are told in full. */
export interface ApiLogger {
  error(message: string, details: Record<string, unknown>): void;
}

/**
 * A Lambda handler serving `handlers` (and refusing every other route as problem+json). A
 * failure answered `5xx` is logged with the request id (the caller gets only a generic
 * detail, which must not leak internals).
 */
export function apiRouter(handlers: ApiHandlers, logger?: ApiLogger): ApiEntry {
  const router = new Router();
  for (const route of ALL_ROUTES) {
    const handle = handlers[route.id as ApiRouteId];
    if (!handle) continue;
    router.route(
      async ({ event, params, context }) => {
        const v2 = event as APIGatewayProxyEventV2;
        try {
          return await handle({
            event: v2,
            params: decodeParams(params),
            query: Object.fromEntries(
              Object.entries(v2.queryStringParameters ?? {}).flatMap(([name, value]) =>
                value === undefined ? [] : [[name, value]],
              ),
            ),
            headers: headersOf(v2),
            caller: callerOf(v2),
            context,
          });
        } catch (error) {
          const answer = problem(error, v2.rawPath);
          if (answer.status >= 500)
            logger?.error('request failed', {
              error,
              requestId: v2.requestContext.requestId,
              route: `${route.method} ${route.path}`,
            });
          return answer;
        }
      },
      { method: route.method, path: routerPath(route.path) },
    );
  }
  router.notFound(async (_error, { event }) =>
    problem(
      new HttpProblem(404, 'no such route', 'NO_SUCH_ROUTE'),
      (event as APIGatewayProxyEventV2).rawPath,
    ),
  );
  router.methodNotAllowed(async (_error, { event }) =>
    problem(
      new HttpProblem(405, 'this route does not take that method', 'METHOD_NOT_ALLOWED'),
      (event as APIGatewayProxyEventV2).rawPath,
    ),
  );
  return (event, context) => router.resolve(event, context);
}

/** Path parameters as the caller meant them (`%2E%2E` is `..`, which the handlers refuse). */
function decodeParams(params: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(params).map(([name, value]) => {
      try {
        return [name, decodeURIComponent(value)];
      } catch {
        return [name, value];
      }
    }),
  );
}
