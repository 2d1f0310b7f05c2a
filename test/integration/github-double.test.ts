/**
 * The GitHub double's own answers over raw HTTP, as GitHub gives them: the pull request
 * shape, the 422 bodies the adapter reads (duplicate pull request, drafts unsupported,
 * existing ref), refusals without credentials, and the record of every request.
 */
import { describe, expect, it } from 'vitest';
import type { GitHubDouble } from '../../local/github-double/server.js';
import { useGitHubDouble } from '../support/github-double.js';

const TOKEN = 'ghp_doubleToken';
const SHA = 'c'.repeat(40);
let github: GitHubDouble;

useGitHubDouble(
  {
    tokens: [TOKEN],
    repositories: [
      { owner: 'acme', name: 'shop' },
      { owner: 'acme', name: 'free-plan', draftPullRequests: false },
    ],
  },
  (started) => (github = started),
);

/** `token: null` sends no `authorization`. */
async function post(path: string, body: unknown, token: string | null = TOKEN) {
  const response = await fetch(`${github.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const pull = { title: 'Fix', head: 'fix', base: 'main', body: 'why', draft: true };

describe('Function: startGitHubDouble', () => {
  it('opens a pull request in GitHub’s shape', async () => {
    // Prepare
    await post('/repos/acme/shop/git/refs', { ref: 'refs/heads/fix', sha: SHA });

    // Act
    const { status, body } = await post('/repos/acme/shop/pulls', pull);

    // Assess
    expect(status).toBe(201);
    expect(body).toMatchObject({
      url: `${github.url}/repos/acme/shop/pulls/1`,
      html_url: `${github.url}/acme/shop/pull/1`,
      number: 1,
      state: 'open',
      draft: true,
      title: 'Fix',
      body: 'why',
      merged_at: null,
      head: { ref: 'fix', sha: SHA, label: 'acme:fix' },
      base: { ref: 'main', repo: { full_name: 'acme/shop', default_branch: 'main' } },
      user: { type: 'Bot' },
    });
  });

  it('answers GitHub’s 422 bodies for a duplicate, a draft without drafts and an existing ref', async () => {
    // Prepare
    for (const repo of ['shop', 'free-plan'])
      await post(`/repos/acme/${repo}/git/refs`, { ref: 'refs/heads/fix', sha: SHA });
    await post('/repos/acme/shop/pulls', pull);

    // Act
    const duplicate = await post('/repos/acme/shop/pulls', pull);
    const draft = await post('/repos/acme/free-plan/pulls', pull);
    const ref = await post('/repos/acme/shop/git/refs', { ref: 'refs/heads/fix', sha: SHA });

    // Assess
    expect(duplicate).toMatchObject({
      status: 422,
      body: {
        message: 'Validation Failed',
        errors: [
          {
            resource: 'PullRequest',
            code: 'custom',
            message: 'A pull request already exists for acme:fix.',
          },
        ],
      },
    });
    expect(draft).toMatchObject({
      status: 422,
      body: { message: 'Draft pull requests are not supported in this repository.' },
    });
    expect(ref).toMatchObject({ status: 422, body: { message: 'Reference already exists' } });
  });

  it('refuses a call without a token and records every request with its status', async () => {
    // Act
    const refused = await post('/repos/acme/shop/issues/1/comments', { body: 'x' }, null);

    // Assess
    expect(refused).toMatchObject({ status: 401, body: { message: 'Requires authentication' } });
    expect(github.state.requests).toMatchObject([
      {
        method: 'POST',
        path: '/repos/acme/shop/issues/1/comments',
        body: { body: 'x' },
        status: 401,
      },
    ]);
  });
});
