/**
 * Where `ralph projects` reads and writes routes: the local stack's table, or a Run API
 * (`--endpoint`). Both check a route with the same use case, so a refusal reads the same.
 */
import {
  deleteProjectRoute,
  getProjectRoute,
  putProjectRoute,
} from '../../../lambdas/core/projects/project-routes.js';
import {
  DeletedProjectSchema,
  ProjectListSchema,
  ProjectRouteSchema,
  type ProjectRoute,
} from '../../../lambdas/core/schemas/project-route.js';
import type { LocalStack } from '../../../local/local-stack.js';
import { apiClientFor, type BackendOptions } from '../backend/with-backend.js';
import type { ApiClient } from '../remote/api-client.js';
import { withSession } from '../session.js';

export interface ProjectsBackend {
  list(): Promise<ProjectRoute[]>;
  get(projectId: string): Promise<ProjectRoute>;
  /** Creates or replaces; with `expectedVersion`, only over that version. */
  put(projectId: string, body: unknown, expectedVersion?: number): Promise<ProjectRoute>;
  remove(projectId: string): Promise<void>;
}

/** Runs `work` on the Run API when an endpoint is given, else on the local stack. */
export async function withProjects<T>(
  options: BackendOptions,
  work: (projects: ProjectsBackend) => Promise<T>,
): Promise<T> {
  if (options.endpoint) {
    const { client } = await apiClientFor(options.endpoint, options);
    return work(apiProjects(client));
  }
  return withSession(options, ({ stack }) => work(localProjects(stack)));
}

function localProjects(stack: LocalStack): ProjectsBackend {
  // The local stack's runs work in local paths too: a route may name one.
  const deps = { routes: stack.projectRoutes, clock: stack.deps.clock, allowLocalRepos: true };
  return {
    list: () => deps.routes.listRoutes(),
    get: (projectId) => getProjectRoute(deps, projectId),
    put: (projectId, body, expectedVersion) =>
      putProjectRoute(deps, projectId, body, {
        ...(expectedVersion === undefined ? {} : { expectedVersion }),
      }),
    remove: async (projectId) => {
      await deleteProjectRoute(deps, projectId);
    },
  };
}

function apiProjects(client: ApiClient): ProjectsBackend {
  const path = (projectId: string) => `/projects/${encodeURIComponent(projectId)}`;
  return {
    list: async () =>
      (
        await client.json(
          { method: 'GET', path: '/projects', retry: 'any-failure' },
          ProjectListSchema,
        )
      ).projects,
    get: (projectId) =>
      client.json(
        { method: 'GET', path: path(projectId), retry: 'any-failure' },
        ProjectRouteSchema,
      ),
    // A PUT is idempotent: the same route again is the same route.
    put: (projectId, body, expectedVersion) =>
      client.json(
        {
          method: 'PUT',
          path: path(projectId),
          body,
          ...(expectedVersion === undefined
            ? {}
            : { headers: { 'if-match': `"${expectedVersion}"` } }),
          retry: 'any-failure',
        },
        ProjectRouteSchema,
      ),
    // A retried delete after a lost answer would find nothing to delete: retried only when refused.
    remove: async (projectId) => {
      await client.json(
        { method: 'DELETE', path: path(projectId), retry: 'refused-only' },
        DeletedProjectSchema,
      );
    },
  };
}
