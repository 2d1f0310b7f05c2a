/**
 * Route lookups kept for a while over the real routes store (DynamoDB emulator): a kept
 * lookup, found or not, is served until it expires; a save or delete through the same
 * instance is seen at once; one through another instance once the kept lookup expires.
 */
import { describe, expect, it } from 'vitest';
import { CachedProjectRoutes } from '../../lambdas/adapters/cached-project-routes.js';
import { ItemTable } from '../../lambdas/adapters/dynamodb/item-table.js';
import { DynamoProjectRoutes } from '../../lambdas/adapters/dynamodb/project-routes.js';
import {
  ProjectRouteBodySchema,
  type ProjectRoute,
} from '../../lambdas/core/schemas/project-route.js';
import { useEmulatorStores } from '../support/emulator-stores.js';

let store: DynamoProjectRoutes;
useEmulatorStores(({ emulators, dynamo }) => {
  store = new DynamoProjectRoutes(new ItemTable(dynamo, emulators.tableName));
});

const AT = '2026-11-27T07:00:00.000Z';
let now = Date.parse(AT);
const clock = { now: () => new Date(now) };

function route(projectId: string, key: string): ProjectRoute {
  const body = ProjectRouteBodySchema.parse({
    matches: [{ kind: 'sentry-project', key }],
    repo: 'https://github.com/acme/shop.git',
  });
  return { ...body, projectId, version: 1, createdAt: AT, updatedAt: AT };
}

describe('CachedProjectRoutes', () => {
  it('serves a kept lookup until it expires, then reads again', async () => {
    const cached = new CachedProjectRoutes(store, clock, 1_000);
    const match = { kind: 'sentry-project', key: 'cached-web' } as const;
    expect(await cached.findRoute(match)).toBeUndefined();
    // Another instance (the projects function) adds the route: not seen while kept...
    await store.saveRoute(route('cached', 'cached-web'), undefined);
    expect(await cached.findRoute(match)).toBeUndefined();
    // ...and seen once the kept lookup has expired.
    now += 1_001;
    expect((await cached.findRoute(match))?.projectId).toBe('cached');
    await store.deleteRoute('cached');
    expect((await cached.findRoute(match))?.projectId).toBe('cached');
  });

  it('forgets what it kept when a route is saved or deleted through it', async () => {
    const cached = new CachedProjectRoutes(store, clock, 60_000);
    const match = { kind: 'sentry-project', key: 'direct-web' } as const;
    expect(await cached.findRoute(match)).toBeUndefined();
    await cached.saveRoute(route('direct', 'direct-web'), undefined);
    expect((await cached.findRoute(match))?.projectId).toBe('direct');
    await cached.deleteRoute('direct');
    expect(await cached.findRoute(match)).toBeUndefined();
  });
});
