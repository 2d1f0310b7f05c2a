/**
 * GitHub App access through the double: the adapter signs an RS256 JWT with the App's
 * private key (a real key pair generated here), trades it for an installation token, and
 * uses that token; the double verifies the JWT with the App's public key and refuses one
 * it cannot verify or that has expired.
 */
import { generateKeyPairSync } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { signAppJwt } from '../../lambdas/adapters/github/app-jwt.js';
import { CodeHostRejectedError } from '../../lambdas/core/errors.js';
import type { GitHubDouble } from '../../local/github-double/server.js';
import { codeHostAt, useGitHubDouble } from '../support/github-double.js';
import { failureOf } from '../support/model-adapters.js';

const APP_ID = 4242;
const INSTALLATION = 77;
const SHOP = { owner: 'acme', name: 'shop' };

function keyPair() {
  return generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
}

const app = keyPair();
const stranger = keyPair();
let github: GitHubDouble;
/** Moves both clocks, the adapter's and the double's, by the same amount. */
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };

useGitHubDouble(
  {
    app: { appId: APP_ID, publicKeyPem: app.publicKey, installationId: INSTALLATION },
    repositories: [{ ...SHOP, issues: [1] }],
    now: () => clock.now(),
  },
  (started) => (github = started),
);

const asApp = (privateKeyPem: string, installationId = INSTALLATION) =>
  codeHostAt(github.url, { kind: 'app', appId: APP_ID, installationId, privateKeyPem }, {}, clock);

beforeEach(() => {
  offsetMs = 0;
});

async function askForToken(jwt: string) {
  const response = await fetch(`${github.url}/app/installations/${INSTALLATION}/access_tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${jwt}`, accept: 'application/vnd.github+json' },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('GitHub App installation tokens', () => {
  it('trades a signed JWT for an installation token and reuses it for later calls', async () => {
    // Prepare
    const host = asApp(app.privateKey);

    // Act
    await host.getRepository(SHOP);
    await host.commentOnIssue(SHOP, 1, 'x');

    // Assess
    const [tokenCall, ...calls] = github.state.requests;
    expect(tokenCall).toMatchObject({
      method: 'POST',
      path: `/app/installations/${INSTALLATION}/access_tokens`,
      status: 201,
    });
    expect(tokenCall?.headers.authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    expect(calls.map((call) => call.path)).toEqual([
      '/repos/acme/shop',
      '/repos/acme/shop/issues/1/comments',
    ]);
    const issued = [...github.state.tokens.keys()];
    expect(issued).toHaveLength(1);
    for (const call of calls) expect(call.headers.authorization).toBe(`Bearer ${issued[0]}`);
  });

  it('renews the installation token five minutes before it expires, not sooner', async () => {
    // Prepare
    const host = asApp(app.privateKey);
    await host.getRepository(SHOP);

    // Act
    offsetMs = 54 * 60_000;
    await host.getRepository(SHOP);
    offsetMs = 56 * 60_000;
    await host.getRepository(SHOP);

    // Assess
    const tokenCalls = github.state.requests.filter((request) => request.path.startsWith('/app/'));
    expect(tokenCalls).toHaveLength(2);
    const [first, second] = [...github.state.tokens.keys()];
    const used = github.state.requests
      .filter((request) => request.path === '/repos/acme/shop')
      .map((request) => request.headers.authorization);
    expect(used).toEqual([`Bearer ${first}`, `Bearer ${first}`, `Bearer ${second}`]);
  });

  it('answers the token call in GitHub’s shape', async () => {
    // Act
    const { status, body } = await askForToken(signAppJwt(APP_ID, app.privateKey, new Date()));

    // Assess
    expect(status).toBe(201);
    expect(body).toEqual({
      token: expect.stringMatching(/^ghs_/),
      expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      permissions: expect.objectContaining({ pull_requests: 'write', contents: 'write' }),
      repository_selection: 'all',
    });
  });

  it('refuses a JWT signed with another key, and the adapter reports it once', async () => {
    // Act
    const error = await failureOf(asApp(stranger.privateKey).getRepository(SHOP));

    // Assess
    expect(error).toBeInstanceOf(CodeHostRejectedError);
    expect(error).toMatchObject({
      status: 401,
      where: `POST /app/installations/${INSTALLATION}/access_tokens`,
    });
    expect(error.message).toContain('A JSON web token could not be decoded');
    expect(error.message).not.toContain('PRIVATE KEY');
    expect(github.state.requests).toHaveLength(1);
    expect(github.state.tokens.size).toBe(0);
  });

  it('refuses an expired JWT, a token that is no JWT, and another installation', async () => {
    // Prepare
    const expired = signAppJwt(APP_ID, app.privateKey, new Date(Date.now() - 20 * 60_000));

    // Act
    const answers = [await askForToken(expired), await askForToken('ghp_notAJwt')];
    const otherInstallation = await failureOf(asApp(app.privateKey, 78).getRepository(SHOP));

    // Assess
    expect(answers).toMatchObject([
      {
        status: 401,
        body: { message: expect.stringContaining("'Expiration time' claim ('exp')") },
      },
      { status: 401, body: { message: 'A JSON web token could not be decoded' } },
    ]);
    expect(otherInstallation).toMatchObject({ status: 404 });
  });

  it('does not take the App’s JWT for repository calls', async () => {
    // Act
    const response = await fetch(`${github.url}/repos/acme/shop`, {
      headers: { authorization: `Bearer ${signAppJwt(APP_ID, app.privateKey, new Date())}` },
    });

    // Assess
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ message: 'Bad credentials' });
  });
});
