/**
 * `ralph projects` on the local stack: a route set from a file, shown, listed, replaced
 * over its version, refused with the reason and exit code (a bad file: 2, nothing saved; a
 * match another project holds or a stale version: 4), and deleted.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ProjectRoute } from '../../lambdas/core/schemas/project-route.js';
import { jsonOf, useCliScratch } from '../support/cli.js';

const scratch = useCliScratch('ralph-projects-');

async function routeFile(name: string, route: unknown): Promise<string> {
  const path = join(scratch.dataDir, `${name}.json`);
  await writeFile(path, JSON.stringify(route));
  return path;
}

const shop = {
  matches: [{ kind: 'sentry-project', key: 'shop-web' }],
  repo: 'git@github.com:acme/shop.git',
  config: { gates: [{ name: 'test', command: 'npm test' }] },
  investigate: { batchWindowSeconds: 60 },
};

describe('ralph projects', () => {
  it('sets a route from a file, shows it for people and lists it for machines', async () => {
    const set = await scratch.ralph('projects', 'set', 'shop', await routeFile('shop', shop));
    expect(set.exitCode, set.stderr).toBe(0);
    expect(set.stdout).toMatch(/^project shop: route created/);
    expect(set.stdout).toContain('code host   acme/shop');
    const show = await scratch.ralph('projects', 'show', 'shop');
    expect(show.stdout).toContain('matches     sentry-project "shop-web"');
    expect(show.stdout).toContain('batching    60 s window');
    expect(show.stdout).toContain('gates       test');
    const list = jsonOf<{ projects: ProjectRoute[] }>(
      await scratch.ralph('projects', 'list', '--json'),
    );
    expect(list.projects.map((route) => route.projectId)).toEqual(['shop']);
  });

  it('refuses a file with an unknown key (exit 2, the nearest key named) and saves nothing', async () => {
    const bad = await scratch.ralph(
      'projects',
      'set',
      'typo',
      await routeFile('typo', {
        ...shop,
        matches: [{ kind: 'sentry-project', key: 't' }],
        investgate: {},
      }),
    );
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('investgate: unknown key — did you mean investigate?');
    expect((await scratch.ralph('projects', 'show', 'typo')).exitCode).toBe(4);
  });

  it('refuses a match another project holds, and a save over a stale version (exit 4)', async () => {
    const clash = await scratch.ralph('projects', 'set', 'web', await routeFile('web', shop));
    expect(clash.exitCode).toBe(4);
    expect(clash.stderr).toContain('is already routed to project shop');
    const file = await routeFile('shop-2', { ...shop, baseBranch: 'develop' });
    expect(
      (await scratch.ralph('projects', 'set', 'shop', file, '--if-version', '1')).exitCode,
    ).toBe(0);
    const stale = await scratch.ralph('projects', 'set', 'shop', file, '--if-version', '1');
    expect(stale.exitCode).toBe(4);
    expect(stale.stderr).toMatch(/expected version 1, but the stored version is 2/);
  });

  it('deletes a route; deleting it again says there is none', async () => {
    const deleted = await scratch.ralph('projects', 'delete', 'shop');
    expect(deleted.exitCode, deleted.stderr).toBe(0);
    const again = await scratch.ralph('projects', 'delete', 'shop');
    expect(again.exitCode).toBe(4);
    expect(again.stderr).toContain('project shop has no route to delete');
    expect((await scratch.ralph('projects', 'list')).stdout).toMatch(/no project routes yet/);
  });
});
