/**
 * Project routes with their lookups kept for a while: every hook delivery looks its route
 * up (one or two reads per name a sender gives), routes change rarely, and a warm function
 * serves many deliveries. A save or a delete through this instance forgets what it kept;
 * one through another (the projects function beside the hooks function) is seen once the
 * kept lookup expires, so a new or changed route takes effect within `ttlMs`.
 */
import type { ProjectRoute, RouteMatch } from '../core/schemas/project-route.js';
import type { Clock, ProjectRoutes } from '../ports.js';

/** How long a lookup is kept (a route not found included). */
export const ROUTE_CACHE_MS = 30_000;

/** Lookups kept at most: past it, the oldest goes (a few hundred routes is a large setup). */
const MAX_ENTRIES = 1_000;

interface Kept {
  readonly route: ProjectRoute | undefined;
  readonly until: number;
}

export class CachedProjectRoutes implements ProjectRoutes {
  readonly #routes: ProjectRoutes;
  readonly #clock: Clock;
  readonly #ttlMs: number;
  readonly #kept = new Map<string, Kept>();

  constructor(routes: ProjectRoutes, clock: Clock, ttlMs = ROUTE_CACHE_MS) {
    this.#routes = routes;
    this.#clock = clock;
    this.#ttlMs = ttlMs;
  }

  async findRoute(match: RouteMatch): Promise<ProjectRoute | undefined> {
    const key = `${match.kind}\u0000${match.key}`;
    const now = this.#clock.now().getTime();
    const kept = this.#kept.get(key);
    if (kept !== undefined && kept.until > now) return kept.route;
    const route = await this.#routes.findRoute(match);
    this.#kept.delete(key);
    if (this.#kept.size >= MAX_ENTRIES) this.#kept.delete(this.#kept.keys().next().value!);
    this.#kept.set(key, { route, until: now + this.#ttlMs });
    return route;
  }

  getRoute(projectId: string): Promise<ProjectRoute | undefined> {
    return this.#routes.getRoute(projectId);
  }

  listRoutes(): Promise<ProjectRoute[]> {
    return this.#routes.listRoutes();
  }

  async saveRoute(route: ProjectRoute, expectedVersion: number | undefined): Promise<ProjectRoute> {
    try {
      return await this.#routes.saveRoute(route, expectedVersion);
    } finally {
      this.#kept.clear();
    }
  }

  async deleteRoute(projectId: string): Promise<boolean> {
    try {
      return await this.#routes.deleteRoute(projectId);
    } finally {
      this.#kept.clear();
    }
  }
}
