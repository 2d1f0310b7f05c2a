import {
  deleteProjectRoute,
  expectedVersionOf,
  getProjectRoute,
  putProjectRoute,
  type ProjectRouteDeps,
} from '../../core/projects/project-routes.js';
import { json, jsonBodyOf } from '../http.js';
import type { ApiHandlers } from '../router.js';

/** GET /projects, GET, PUT and DELETE /projects/{projectId}. */
export function projectRoutes(deps: ProjectRouteDeps): ApiHandlers {
  return {
    listProjects: async () => json(200, { projects: await deps.routes.listRoutes() }),
    getProject: async ({ params }) => json(200, await getProjectRoute(deps, params.projectId!)),
    putProject: async ({ params, event, headers }) => {
      const expectedVersion = expectedVersionOf(headers['if-match'], 'If-Match header');
      const route = await putProjectRoute(deps, params.projectId!, jsonBodyOf(event), {
        ...(expectedVersion === undefined ? {} : { expectedVersion }),
      });
      return json(200, route);
    },
    deleteProject: async ({ params }) =>
      json(200, await deleteProjectRoute(deps, params.projectId!)),
  };
}
