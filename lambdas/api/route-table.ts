/**
 * Every route of the Run API, once: the router registers its handlers by these ids, the CDK
 * construct creates one API Gateway route per entry on its group's function, and
 * `/openapi.json` is generated from the same entries and their zod schemas. A route cannot
 * be served, deployed or documented without the other two.
 */
import type { z } from 'zod';
import {
  CancelResultSchema,
  IterationListSchema,
  IterationViewSchema,
  ResumeRunBodySchema,
  RunStartedSchema,
  RunsPageSchema,
  RunsQuerySchema,
  RunViewSchema,
  StartRunBodySchema,
} from '../core/schemas/run-views.js';
import { HookAnswerSchema } from '../core/schemas/hook-answer.js';
import {
  DeletedProjectSchema,
  ProjectListSchema,
  ProjectRouteBodySchema,
  ProjectRouteSchema,
} from '../core/schemas/project-route.js';

/**
 * The Lambda functions of the API, each with the permissions of its routes only:
 * - `start`: write a run request, start an execution, keep idempotency records;
 * - `read`: read runs, tasks and iterations (and the evaluation log of one);
 * - `artefact`: read an iteration's record and sign a URL to one of its artefacts;
 * - `control`: cancel (write the run) and resume (start an execution);
 * - `projects`: read and write project routes (their items only);
 * - `openapi`: nothing.
 */
export const API_FUNCTION_GROUPS = [
  'start',
  'read',
  'artefact',
  'control',
  'projects',
  'openapi',
] as const;
export type ApiFunctionGroup = (typeof API_FUNCTION_GROUPS)[number];

/**
 * The webhook receivers' function: it reads the senders' secrets, records error groups and
 * batches, and schedules batch closes. Its routes are not IAM-authorised (`auth: 'sender'`):
 * each sender is checked by its own scheme (lambdas/api/hook-auth.ts).
 */
export const HOOK_FUNCTION_GROUP = 'hooks';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface ApiRoute {
  /** The OpenAPI operationId, and the key the router registers the handler under. */
  readonly id: string;
  readonly method: HttpMethod;
  /** OpenAPI / API Gateway syntax: `/runs/{id}`. */
  readonly path: string;
  readonly group: ApiFunctionGroup | typeof HOOK_FUNCTION_GROUP;
  /**
   * Who may call it: absent, the API's authorizer (IAM SigV4, or JWT); `sender`, anyone,
   * and the route itself checks the sender's signature or token (a webhook). Such a route
   * reads its body raw: the signature is over its bytes.
   */
  readonly auth?: 'sender';
  readonly summary: string;
  readonly body?: z.ZodType;
  /** The body may be left out (an empty body is taken as `{}`). */
  readonly bodyOptional?: boolean;
  readonly query?: z.ZodType;
  /** The success status and what it carries (`undefined` for a redirect). */
  readonly success: { status: 200 | 202 | 302; schema?: z.ZodType; description: string };
  /** The problem statuses this route answers besides 401/403/429/500. */
  readonly problems: readonly number[];
  /** Reads an `Idempotency-Key` header. */
  readonly idempotent?: boolean;
}

export const API_ROUTES = [
  {
    id: 'startRun',
    method: 'POST',
    path: '/runs',
    group: 'start',
    summary: 'Start a run: store the request and start its first segment',
    body: StartRunBodySchema,
    success: { status: 202, schema: RunStartedSchema, description: 'the run is starting' },
    problems: [400, 409, 413, 415, 422],
    idempotent: true,
  },
  {
    id: 'listRuns',
    method: 'GET',
    path: '/runs',
    group: 'read',
    summary: 'A page of runs, newest first',
    query: RunsQuerySchema,
    success: { status: 200, schema: RunsPageSchema, description: 'a page of runs' },
    problems: [400],
  },
  {
    id: 'getRun',
    method: 'GET',
    path: '/runs/{id}',
    group: 'read',
    summary: 'A run: status, stories, last failure, stop reason, evaluation summary',
    success: { status: 200, schema: RunViewSchema, description: 'the run' },
    problems: [400, 404],
  },
  {
    id: 'listIterations',
    method: 'GET',
    path: '/runs/{id}/iterations',
    group: 'read',
    summary: "A run's iterations, in order",
    success: { status: 200, schema: IterationListSchema, description: 'the iterations' },
    problems: [400, 404],
  },
  {
    id: 'getIteration',
    method: 'GET',
    path: '/runs/{id}/iterations/{n}',
    group: 'read',
    summary: 'One iteration: record, artefacts, evaluation log',
    success: { status: 200, schema: IterationViewSchema, description: 'the iteration' },
    problems: [400, 404],
  },
  {
    id: 'getArtefact',
    method: 'GET',
    path: '/runs/{id}/iterations/{n}/artefacts/{name}',
    group: 'artefact',
    summary:
      'Redirect to one artefact of an iteration (a presigned URL valid 5 minutes); 409 when its bytes changed since they were written',
    success: { status: 302, description: 'Location: a presigned URL to the artefact' },
    problems: [400, 404, 409],
  },
  {
    id: 'getRunArtefact',
    method: 'GET',
    path: '/runs/{id}/artefacts/{name}',
    group: 'artefact',
    summary:
      "Redirect to one of the run's own artefacts (summary.json, manifest.json, request.json, convergence-proof.json, investigation-report.json; a presigned URL valid 5 minutes); 409 when its bytes changed since they were written",
    success: { status: 302, description: 'Location: a presigned URL to the artefact' },
    problems: [400, 404, 409],
  },
  {
    id: 'cancelRun',
    method: 'POST',
    path: '/runs/{id}/cancel',
    group: 'control',
    summary: 'Cancel a run: a paused one at once, a running one at its next step',
    success: { status: 200, schema: CancelResultSchema, description: 'the run as it now is' },
    problems: [400, 404, 409],
  },
  {
    id: 'resumeRun',
    method: 'POST',
    path: '/runs/{id}/resume',
    group: 'control',
    summary:
      'Resume a paused run in a new segment, or continue one that stopped at its iteration limit or was cancelled (with a higher maxIterations)',
    body: ResumeRunBodySchema,
    bodyOptional: true,
    success: { status: 202, schema: RunStartedSchema, description: 'the next segment is starting' },
    problems: [400, 404, 409, 413, 415],
  },
  {
    id: 'listProjects',
    method: 'GET',
    path: '/projects',
    group: 'projects',
    summary: 'The project routes: which repository each sender project is investigated in',
    success: { status: 200, schema: ProjectListSchema, description: 'every project route' },
    problems: [],
  },
  {
    id: 'getProject',
    method: 'GET',
    path: '/projects/{projectId}',
    group: 'projects',
    summary: "A project's route",
    success: { status: 200, schema: ProjectRouteSchema, description: 'the route' },
    problems: [400, 404],
  },
  {
    id: 'putProject',
    method: 'PUT',
    path: '/projects/{projectId}',
    group: 'projects',
    summary:
      "Create or replace a project's route (with If-Match: <version>, only over that version)",
    body: ProjectRouteBodySchema,
    success: { status: 200, schema: ProjectRouteSchema, description: 'the route as saved' },
    problems: [400, 404, 409, 413, 415],
  },
  {
    id: 'deleteProject',
    method: 'DELETE',
    path: '/projects/{projectId}',
    group: 'projects',
    summary: "Delete a project's route (its error groups and runs stay)",
    success: { status: 200, schema: DeletedProjectSchema, description: 'the route is gone' },
    problems: [400, 404, 409],
  },
  {
    id: 'getOpenApi',
    method: 'GET',
    path: '/openapi.json',
    group: 'openapi',
    summary: 'This API, as an OpenAPI 3.1 document',
    success: { status: 200, description: 'the OpenAPI document' },
    problems: [],
  },
] as const satisfies readonly ApiRoute[];

/**
 * The webhook routes, apart from API_ROUTES, on the `hooks` function. Sentry's and New
 * Relic's are `auth: 'sender'` (no authorizer: the route checks the sender). CloudWatch's
 * is behind the API's authorizer like any route: alarms reach a deployment through its
 * EventBridge rule and SNS topic, and this route is for an AWS principal (a forwarder,
 * `ralph hooks send cloudwatch`) that signs its request.
 */
export const HOOK_ROUTES = [
  {
    id: 'sentryHook',
    method: 'POST',
    path: '/hooks/sentry',
    group: HOOK_FUNCTION_GROUP,
    auth: 'sender',
    summary:
      'A Sentry integration webhook (Sentry-Hook-Resource: issue, event_alert, error, metric_alert, installation, comment), signed with the client secret (Sentry-Hook-Signature, Sentry-Hook-Timestamp within 5 minutes)',
    success: {
      status: 202,
      schema: HookAnswerSchema,
      description:
        "what became of each event's error group (200 instead: a replayed or an ignored delivery)",
    },
    problems: [400, 413, 503],
  },
  {
    id: 'newRelicHook',
    method: 'POST',
    path: '/hooks/newrelic',
    group: HOOK_FUNCTION_GROUP,
    auth: 'sender',
    summary:
      'A New Relic workflow webhook (its default payload template), carrying the configured token (Authorization: Bearer, or the configured header)',
    success: {
      status: 202,
      schema: HookAnswerSchema,
      description:
        "what became of the issue's error group (200 instead: a replayed or an ignored delivery)",
    },
    problems: [400, 413, 503],
  },
  {
    id: 'cloudWatchHook',
    method: 'POST',
    path: '/hooks/cloudwatch',
    group: HOOK_FUNCTION_GROUP,
    summary:
      'A CloudWatch alarm state change as EventBridge or SNS delivers it (the event, an SNS notification with the alarm JSON in Message, or an SNS Lambda event), signed by the caller (SigV4)',
    success: {
      status: 202,
      schema: HookAnswerSchema,
      description:
        "what became of the alarm's error group (200 instead: a replayed delivery, or an alarm that is not ALARM)",
    },
    problems: [400, 413, 503],
  },
] as const satisfies readonly ApiRoute[];

/** Every route the router serves and /openapi.json documents. */
export const ALL_ROUTES: readonly ApiRoute[] = [...API_ROUTES, ...HOOK_ROUTES];

export type ApiRouteId = (typeof API_ROUTES)[number]['id'] | (typeof HOOK_ROUTES)[number]['id'];

/** The route a sender calls without the API's authorizer, if `method path` is one. */
export function senderAuthenticated(method: string, path: string): ApiRoute | undefined {
  return ALL_ROUTES.find(
    (route) => route.auth === 'sender' && route.method === method && route.path === path,
  );
}

/** The routes one function serves. */
export function routesOf(group: ApiFunctionGroup): ApiRoute[] {
  return API_ROUTES.filter((route) => route.group === group);
}

/** The largest request body accepted (`413` above it); a run request is a few KiB. */
export const API_BODY_LIMIT_BYTES = 1024 * 1024;

/** How long a presigned artefact URL stays valid. */
export const ARTEFACT_URL_SECONDS = 300;

/**
 * The one table partition POST /runs' idempotency records live on: the start function may
 * touch no other (lib/api-permissions.ts conditions its grant on it).
 */
export const IDEMPOTENCY_PARTITION = 'IDEMPOTENCY#start-run';

/** How long a POST /runs answer is kept for a retry with the same `Idempotency-Key`. */
export const IDEMPOTENCY_SECONDS = 24 * 60 * 60;
