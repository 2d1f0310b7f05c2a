/**
 * `POST /app/installations/{id}/access_tokens`: an installation token for the App's
 * installation, in GitHub's shape, valid for an hour; the JWT is checked first.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { HttpAnswer } from '../model-server/http.js';
import { bearerOf, checkAppJwt } from './auth.js';
import type { GitHubDoubleState } from './double-state.js';
import { errorBody } from './shapes.js';

const TOKEN_LIFETIME_MS = 60 * 60_000;

export function createInstallationToken(
  state: GitHubDoubleState,
  installationId: number,
  headers: IncomingHttpHeaders,
  now: Date,
): HttpAnswer {
  const check = checkAppJwt(state.app, bearerOf(headers), now);
  if (!check.ok) return { status: check.status, body: errorBody(check.status, check.message) };
  if (state.app?.installationId !== installationId)
    return {
      status: 404,
      body: errorBody(404, 'Not Found', {
        docs: 'https://docs.github.com/rest/apps/apps#create-an-installation-access-token-for-an-app',
      }),
    };
  const token = `ghs_${randomBytes(27).toString('base64url')}`;
  const expiresAt = new Date(now.getTime() + TOKEN_LIFETIME_MS);
  state.tokens.set(token, { expiresAtMs: expiresAt.getTime() });
  return {
    status: 201,
    body: {
      token,
      expires_at: expiresAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      permissions: { contents: 'write', issues: 'write', metadata: 'read', pull_requests: 'write' },
      repository_selection: 'all',
    },
  };
}
