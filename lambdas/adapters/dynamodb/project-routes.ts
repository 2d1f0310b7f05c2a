/**
 * Project routes on the single table (docs/data-model.md, "Project routes"). A route is one
 * item in the `ROUTES` partition (so a strongly consistent query lists them all: routes are
 * few); each of its matches has a pointer item (`ROUTEMATCH#<kind>#<key>`) naming the
 * project, which is how a delivery finds its route with one read and how a match is kept
 * to one project.
 *
 * dynalite has no transactions, and none is needed: a save claims the pointers of its
 * matches first (each a conditional write), then writes the route, then releases the
 * pointers of matches it dropped. A crash between leaves a pointer naming a project whose
 * route does not list the match: `findRoute` checks the route and ignores such a stale
 * pointer, and the next save of any project may take it over.
 */
import { VersionConflictError } from '../../core/errors.js';
import {
  ProjectRouteSchema,
  type ProjectRoute,
  type RouteMatch,
} from '../../core/schemas/project-route.js';
import { parseOrThrow } from '../../core/shared/validation.js';
import type { ProjectRoutes } from '../../ports.js';
import { ROUTE_PARTITIONS, TABLE_KEYS } from '../table-design.js';
import { conditionalPut, createOrSave } from './conditional-writes.js';
import type { ItemTable } from './item-table.js';
import { dropUndefined, parseStoredItem, type Item } from './stored-items.js';

const { partitionKey: PK, sortKey: SK } = TABLE_KEYS;

/** The key builders, exported so docs and tests name items as the store does. */
export const projectRouteKeys = {
  routesPk: ROUTE_PARTITIONS.routes,
  routeSk: (projectId: string) => `ROUTE#${projectId}`,
  matchPk: (match: RouteMatch) => `${ROUTE_PARTITIONS.matchPrefix}${match.kind}#${match.key}`,
  matchSk: 'ROUTEMATCH',
} as const;

const routeKey = (projectId: string): Item => ({
  [PK]: projectRouteKeys.routesPk,
  [SK]: projectRouteKeys.routeSk(projectId),
});
const matchKey = (match: RouteMatch): Item => ({
  [PK]: projectRouteKeys.matchPk(match),
  [SK]: projectRouteKeys.matchSk,
});
const routeItem = (route: ProjectRoute): Item => ({
  ...dropUndefined(route),
  ...routeKey(route.projectId),
});
const sameMatch = (a: RouteMatch, b: RouteMatch): boolean => a.kind === b.kind && a.key === b.key;
const named = (match: RouteMatch): string => `${match.kind} "${match.key}"`;

/**
 * @example
 * const routes = new DynamoProjectRoutes(new ItemTable(client, 'ralph'));
 * const route = await routes.findRoute({ kind: 'sentry-project', key: 'checkout' });
 */
export class DynamoProjectRoutes implements ProjectRoutes {
  readonly #table: ItemTable;

  constructor(table: ItemTable) {
    this.#table = table;
  }

  async getRoute(projectId: string): Promise<ProjectRoute | undefined> {
    const item = await this.#table.get(routeKey(projectId), `route of project ${projectId}`);
    return item === undefined ? undefined : parseStoredItem(ProjectRouteSchema, item, 'route');
  }

  async listRoutes(): Promise<ProjectRoute[]> {
    const items = await this.#table.query(
      {
        keyCondition: '#pk = :pk AND begins_with(#sk, :route)',
        names: { '#pk': PK, '#sk': SK },
        values: { ':pk': projectRouteKeys.routesPk, ':route': 'ROUTE#' },
      },
      'project routes',
    );
    return items.map((item) => parseStoredItem(ProjectRouteSchema, item, 'route'));
  }

  async findRoute(match: RouteMatch): Promise<ProjectRoute | undefined> {
    const pointer = await this.#table.get(matchKey(match), `route match ${named(match)}`);
    const projectId = pointer?.['projectId'];
    if (typeof projectId !== 'string') return undefined;
    const route = await this.getRoute(projectId);
    // A pointer left by a save that did not finish, or by a route since changed: not a match.
    return route?.matches.some((own) => sameMatch(own, match)) === true ? route : undefined;
  }

  async saveRoute(route: ProjectRoute, expectedVersion: number | undefined): Promise<ProjectRoute> {
    const checked = parseOrThrow(ProjectRouteSchema, route, 'project route');
    const before = expectedVersion === undefined ? undefined : await this.getRoute(route.projectId);
    for (const match of checked.matches) await this.#claim(match, checked.projectId);
    const saved = await this.#write(checked, expectedVersion);
    const dropped = (before?.matches ?? []).filter(
      (old) => !saved.matches.some((kept) => sameMatch(kept, old)),
    );
    for (const match of dropped) await this.#release(match, saved.projectId);
    return saved;
  }

  async deleteRoute(projectId: string): Promise<boolean> {
    const route = await this.getRoute(projectId);
    if (route === undefined) return false;
    const removed = await this.#table.deleteIf(
      {
        key: routeKey(projectId),
        condition: '#version = :version',
        names: { '#version': 'version' },
        values: { ':version': route.version },
      },
      `route of project ${projectId}`,
    );
    if (removed.refused)
      throw new VersionConflictError(
        `route of project ${projectId} changed while it was being deleted; read it again`,
        { cause: removed.cause },
      );
    for (const match of route.matches) await this.#release(match, projectId);
    return true;
  }

  async #write(route: ProjectRoute, expectedVersion: number | undefined): Promise<ProjectRoute> {
    return createOrSave(this.#table, ProjectRouteSchema, route, expectedVersion, {
      label: 'project route',
      item: routeItem,
      what: (next) => `route of project ${next.projectId}`,
      exists: () =>
        `project ${route.projectId} already has a route: save it with its version to change it`,
    });
  }

  /**
   * Points `match` at `projectId`: free, already ours, or stale (its project's route no
   * longer lists it). Another project's live match is a VersionConflictError naming it.
   */
  async #claim(match: RouteMatch, projectId: string): Promise<void> {
    const what = `route match ${named(match)}`;
    const item = { ...matchKey(match), projectId };
    const claimed = await conditionalPut(this.#table, {
      item,
      condition: 'attribute_not_exists(#pk) OR #project = :project',
      names: { '#pk': PK, '#project': 'projectId' },
      values: { ':project': projectId },
      what,
    });
    if (claimed.written) return;
    const holder = 'stored' in claimed ? claimed.stored?.['projectId'] : undefined;
    if (typeof holder !== 'string')
      throw new VersionConflictError(`${what} could not be claimed; try again`, {
        cause: claimed.cause,
      });
    const holderRoute = await this.getRoute(holder);
    if (holderRoute?.matches.some((own) => sameMatch(own, match)) === true)
      throw new VersionConflictError(
        `${what} is already routed to project ${holder}: remove it there first`,
      );
    const takenOver = await conditionalPut(this.#table, {
      item,
      condition: '#project = :stale',
      names: { '#project': 'projectId' },
      values: { ':stale': holder },
      what,
    });
    if (!takenOver.written)
      throw new VersionConflictError(`${what} was claimed by another save; try again`, {
        cause: takenOver.cause,
      });
  }

  /** Removes `match`'s pointer if it still names `projectId` (never another project's). */
  async #release(match: RouteMatch, projectId: string): Promise<void> {
    await this.#table.deleteIf(
      {
        key: matchKey(match),
        condition: '#project = :project',
        names: { '#project': 'projectId' },
        values: { ':project': projectId },
      },
      `route match ${named(match)}`,
    );
  }
}
