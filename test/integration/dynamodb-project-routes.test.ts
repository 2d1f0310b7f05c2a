/**
 * Project routes against the DynamoDB emulator: a delivery finds its project by any of the
 * route's matches; a match belongs to one project at a time; a save or delete races are
 * refused by version; a pointer left by a save that did not finish never routes and is
 * taken over by the next save.
 */
import { describe, expect, it } from 'vitest';
import { ItemTable } from '../../lambdas/adapters/dynamodb/item-table.js';
import {
  DynamoProjectRoutes,
  projectRouteKeys,
} from '../../lambdas/adapters/dynamodb/project-routes.js';
import { NotFoundError, VersionConflictError } from '../../lambdas/core/errors.js';
import {
  ProjectRouteBodySchema,
  type ProjectRoute,
  type RouteMatch,
} from '../../lambdas/core/schemas/project-route.js';
import { useEmulatorStores } from '../support/emulator-stores.js';

let routes: DynamoProjectRoutes;
let table: ItemTable;

useEmulatorStores(({ emulators, dynamo }) => {
  table = new ItemTable(dynamo, emulators.tableName);
  routes = new DynamoProjectRoutes(table);
});

const NOW = '2026-11-27T07:00:00.000Z';

function route(projectId: string, matches: RouteMatch[]): ProjectRoute {
  const body = ProjectRouteBodySchema.parse({
    matches,
    repo: `https://github.com/acme/${projectId}.git`,
  });
  return { ...body, projectId, version: 1, createdAt: NOW, updatedAt: NOW };
}

const sentry = (key: string): RouteMatch => ({ kind: 'sentry-project', key });

describe('project routes', () => {
  it('finds a route by each of its matches, lists it, and reads it back as saved', async () => {
    const saved = await routes.saveRoute(
      route('shop', [sentry('shop-web'), { kind: 'cloudwatch-alarm', key: 'shop-5xx' }]),
      undefined,
    );
    expect(saved.version).toBe(1);
    expect(saved.investigate.batchWindowSeconds).toBe(300);
    expect((await routes.findRoute(sentry('shop-web')))?.projectId).toBe('shop');
    expect((await routes.findRoute({ kind: 'cloudwatch-alarm', key: 'shop-5xx' }))?.projectId).toBe(
      'shop',
    );
    // The same key under another kind is another match.
    expect(await routes.findRoute({ kind: 'newrelic-policy', key: 'shop-web' })).toBeUndefined();
    expect(await routes.getRoute('shop')).toEqual(saved);
    expect((await routes.listRoutes()).map((listed) => listed.projectId)).toContain('shop');
  });

  it('refuses a second create and a save over a stale version', async () => {
    await routes.saveRoute(route('cart', [sentry('cart')]), undefined);
    await expect(routes.saveRoute(route('cart', [sentry('cart')]), undefined)).rejects.toThrow(
      /already has a route/,
    );
    const updated = await routes.saveRoute(route('cart', [sentry('cart'), sentry('cart-2')]), 1);
    expect(updated.version).toBe(2);
    await expect(routes.saveRoute(route('cart', [sentry('cart')]), 1)).rejects.toBeInstanceOf(
      VersionConflictError,
    );
    await expect(routes.saveRoute(route('nothing', [sentry('n')]), 3)).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it("keeps a match to one project: another project's live match is refused, naming it", async () => {
    await routes.saveRoute(route('billing', [sentry('billing')]), undefined);
    await expect(
      routes.saveRoute(route('invoices', [sentry('invoices'), sentry('billing')]), undefined),
    ).rejects.toThrow(/sentry-project "billing" is already routed to project billing/);
    expect(await routes.getRoute('invoices')).toBeUndefined();
    expect((await routes.findRoute(sentry('billing')))?.projectId).toBe('billing');
  });

  it('releases the matches a save drops, so another project may take them', async () => {
    await routes.saveRoute(route('search', [sentry('search'), sentry('search-old')]), undefined);
    await routes.saveRoute(route('search', [sentry('search')]), 1);
    expect(await routes.findRoute(sentry('search-old'))).toBeUndefined();
    const taken = await routes.saveRoute(route('legacy', [sentry('search-old')]), undefined);
    expect((await routes.findRoute(sentry('search-old')))?.projectId).toBe(taken.projectId);
  });

  it('never routes by a stale pointer, and takes one over on the next save', async () => {
    // A save that claimed its pointer and stopped before writing the route.
    await table.batchPut(
      [
        {
          pk: projectRouteKeys.matchPk(sentry('ghost')),
          sk: projectRouteKeys.matchSk,
          projectId: 'gone',
        },
      ],
      'a stale pointer',
    );
    expect(await routes.findRoute(sentry('ghost'))).toBeUndefined();
    await routes.saveRoute(route('real', [sentry('ghost')]), undefined);
    expect((await routes.findRoute(sentry('ghost')))?.projectId).toBe('real');
  });

  it('deletes a route and its matches; deleting none says so', async () => {
    await routes.saveRoute(route('temp', [sentry('temp')]), undefined);
    expect(await routes.deleteRoute('temp')).toBe(true);
    expect(await routes.getRoute('temp')).toBeUndefined();
    expect(await routes.findRoute(sentry('temp'))).toBeUndefined();
    expect(await routes.deleteRoute('temp')).toBe(false);
    // The freed match can be routed again.
    await routes.saveRoute(route('temp-2', [sentry('temp')]), undefined);
    expect((await routes.findRoute(sentry('temp')))?.projectId).toBe('temp-2');
  });
});
