/**
 * Project routes through the Run API over real HTTP (`ralph serve`'s server on the local
 * stack): created, read, listed, replaced over a version, refused with the reason (an
 * unknown key, a match another project holds, a stale If-Match) with nothing changed, and
 * deleted.
 */
import { describe, expect, it } from 'vitest';
import { useApiServer } from '../support/api-server.js';

const shop = {
  matches: [{ kind: 'sentry-project', key: 'shop-web' }],
  repo: 'https://github.com/acme/shop.git',
  config: { gates: [{ name: 'test', command: 'npm test' }] },
};

describe('project routes through the Run API', () => {
  const api = useApiServer();

  it('creates a route, reads the code host from a github.com URL, lists and reads it back', async () => {
    const put = await api().call('PUT', '/projects/shop', { body: shop });
    expect(put.status).toBe(200);
    expect(put.json).toMatchObject({
      projectId: 'shop',
      version: 1,
      baseBranch: 'main',
      codeHost: { owner: 'acme', name: 'shop' },
      investigate: { batchWindowSeconds: 300, maxPasses: 2, runContextChars: 1500 },
    });
    const got = await api().call('GET', '/projects/shop');
    expect(got.json).toEqual(put.json);
    const listed = await api().call('GET', '/projects');
    expect(listed.json.projects.map((p: { projectId: string }) => p.projectId)).toContain('shop');
  });

  it('replaces a route over its version, and refuses a stale If-Match with nothing changed', async () => {
    await api().call('PUT', '/projects/cart', {
      body: { ...shop, matches: [{ kind: 'sentry-project', key: 'cart' }] },
    });
    const replaced = await api().call('PUT', '/projects/cart', {
      body: { ...shop, matches: [{ kind: 'sentry-project', key: 'cart' }], baseBranch: 'develop' },
      headers: { 'if-match': '"1"' },
    });
    expect(replaced.json).toMatchObject({ version: 2, baseBranch: 'develop' });
    const stale = await api().call('PUT', '/projects/cart', {
      body: { ...shop, matches: [{ kind: 'sentry-project', key: 'cart' }], baseBranch: 'stale' },
      headers: { 'if-match': '1' },
    });
    expect(stale.status).toBe(409);
    expect(stale.json.detail).toMatch(/expected version 1, but the stored version is 2/);
    expect((await api().call('GET', '/projects/cart')).json.baseBranch).toBe('develop');
  });

  it('refuses an unknown key with the nearest known one, before anything is written', async () => {
    const before = await api().stored();
    const answer = await api().call('PUT', '/projects/typo', {
      body: { ...shop, matches: [{ kind: 'sentry-project', key: 'typo' }], baseBrnach: 'x' },
    });
    expect(answer.status).toBe(400);
    expect(answer.json.errors).toEqual(['baseBrnach: unknown key — did you mean baseBranch?']);
    expect(await api().stored()).toEqual(before);
  });

  it('refuses a path that is not a project id, and a local path on a git-only field', async () => {
    const badId = await api().call('PUT', '/projects/Not_An_Id', { body: shop });
    expect(badId.status).toBe(400);
    expect(badId.json.errors[0]).toMatch(/project id/);
    const badRepo = await api().call('PUT', '/projects/rel', {
      body: { ...shop, repo: 'relative/path' },
    });
    expect(badRepo.status).toBe(400);
    expect(badRepo.json.errors[0]).toMatch(/^repo: /);
  });

  it("refuses a match another project's route holds, naming that project", async () => {
    await api().call('PUT', '/projects/billing', {
      body: { ...shop, matches: [{ kind: 'newrelic-policy', key: 'Billing errors' }] },
    });
    const clash = await api().call('PUT', '/projects/invoices', {
      body: { ...shop, matches: [{ kind: 'newrelic-policy', key: 'Billing errors' }] },
    });
    expect(clash.status).toBe(409);
    expect(clash.json.detail).toMatch(/already routed to project billing/);
    expect((await api().call('GET', '/projects/invoices')).status).toBe(404);
  });

  it('deletes a route; a second delete and a read are 404', async () => {
    await api().call('PUT', '/projects/gone', {
      body: { ...shop, matches: [{ kind: 'cloudwatch-alarm', key: 'gone-5xx' }] },
    });
    const deleted = await api().call('DELETE', '/projects/gone');
    expect(deleted.json).toEqual({ projectId: 'gone', deleted: true });
    expect((await api().call('DELETE', '/projects/gone')).status).toBe(404);
    expect((await api().call('GET', '/projects/gone')).status).toBe(404);
  });
});
