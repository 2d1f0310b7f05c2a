/**
 * Managing project routes (`/projects`, `ralph projects`): which repository, base branch,
 * gates and limits an error of a sender's project is investigated with.
 */
import { InvalidInputError, NotFoundError } from '../errors.js';
import {
  ProjectIdSchema,
  ProjectRouteBodySchema,
  type ProjectRoute,
} from '../schemas/project-route.js';
import { parseOrThrow } from '../shared/validation.js';
import type { Clock, ProjectRoutes } from '../../ports.js';
import { repoRefOf } from '../runs/repo-ref.js';
import { gitHubRepoOf } from './github-repo.js';

export interface ProjectRouteDeps {
  routes: ProjectRoutes;
  clock: Clock;
  /** A local server takes local paths; a deployment only git URLs it can clone. */
  allowLocalRepos: boolean;
}

/** A project id from a path or an argument, checked. */
export function checkedProjectId(projectId: string): string {
  return parseOrThrow(ProjectIdSchema, projectId, 'project id');
}

/**
 * Creates or replaces a project's route from `body` (ProjectRouteBodySchema: unknown keys
 * are refused with the nearest known one), checked whole before anything is written. With
 * `expectedVersion`, a route changed since it was read is a VersionConflictError; without,
 * the route as it now is is replaced.
 *
 * @example
 * await putProjectRoute(deps, 'shop', { matches: [{ kind: 'sentry-project', key: 'shop' }], repo: 'https://github.com/acme/shop.git' });
 */
export async function putProjectRoute(
  deps: ProjectRouteDeps,
  projectId: string,
  body: unknown,
  options: { expectedVersion?: number } = {},
): Promise<ProjectRoute> {
  const id = checkedProjectId(projectId);
  const parsed = parseOrThrow(ProjectRouteBodySchema, body, 'project route');
  repoRefOf(parsed.repo, { allowLocal: deps.allowLocalRepos });
  const codeHost = parsed.codeHost ?? gitHubRepoOf(parsed.repo);
  const current = await deps.routes.getRoute(id);
  if (options.expectedVersion !== undefined && current === undefined)
    throw new NotFoundError(`project ${id} has no route to save over`);
  const now = deps.clock.now().toISOString();
  const route: ProjectRoute = {
    projectId: id,
    ...parsed,
    ...(codeHost === undefined ? {} : { codeHost }),
    version: current?.version ?? 1,
    createdAt: current?.createdAt ?? now,
    updatedAt: now,
  };
  return deps.routes.saveRoute(route, options.expectedVersion ?? current?.version);
}

export async function getProjectRoute(
  deps: Pick<ProjectRouteDeps, 'routes'>,
  projectId: string,
): Promise<ProjectRoute> {
  const id = checkedProjectId(projectId);
  const route = await deps.routes.getRoute(id);
  if (route === undefined)
    throw new NotFoundError(`project ${id} has no route (ralph projects set ${id} FILE adds one)`);
  return route;
}

export async function deleteProjectRoute(
  deps: Pick<ProjectRouteDeps, 'routes'>,
  projectId: string,
): Promise<{ projectId: string; deleted: true }> {
  const id = checkedProjectId(projectId);
  if (!(await deps.routes.deleteRoute(id)))
    throw new NotFoundError(`project ${id} has no route to delete`);
  return { projectId: id, deleted: true };
}

/** A version from an `If-Match` header or a flag: a positive integer, or a clear refusal. */
export function expectedVersionOf(value: string | undefined, where: string): number | undefined {
  if (value === undefined) return undefined;
  const digits = value.replace(/^W\//, '').replaceAll('"', '');
  const version = Number(digits);
  if (!/^\d+$/.test(digits) || !Number.isSafeInteger(version) || version < 1)
    throw new InvalidInputError(where, [`"${value}" is not a route version (a positive integer)`]);
  return version;
}
