/**
 * The bearer token for GitHub calls: a plain token as given, or a GitHub App installation
 * token obtained with the App's JWT (`POST /app/installations/{id}/access_tokens`) and
 * reused until five minutes before it expires (installation tokens last an hour).
 */
import type { Clock } from '../../ports.js';
import { signAppJwt } from './app-jwt.js';
import type { GitHubAppCredentials, GitHubCredentials } from './github-config.js';
import type { GitHubHttp } from './github-http.js';
import { refused } from './github-http.js';
import { installationTokenSchema } from './github-responses.js';
import { parseAnswer } from './parse-answer.js';

export interface GitHubTokenSource {
  token(): Promise<string>;
}

/** A token is renewed this long before GitHub's `expires_at`. */
const RENEW_BEFORE_MS = 5 * 60_000;

/**
 * The token source for `credentials`.
 *
 * @example
 * const tokens = tokenSource({ kind: 'token', token }, http, systemClock);
 */
export function tokenSource(
  credentials: GitHubCredentials,
  http: GitHubHttp,
  clock: Clock,
): GitHubTokenSource {
  if (credentials.kind === 'token') return { token: () => Promise.resolve(credentials.token) };
  return new InstallationTokens(credentials, http, clock);
}

class InstallationTokens implements GitHubTokenSource {
  readonly #credentials: GitHubAppCredentials;
  readonly #http: GitHubHttp;
  readonly #clock: Clock;
  #current: Promise<{ token: string; expiresAtMs: number }> | undefined;

  constructor(credentials: GitHubAppCredentials, http: GitHubHttp, clock: Clock) {
    this.#credentials = credentials;
    this.#http = http;
    this.#clock = clock;
  }

  async token(): Promise<string> {
    const current = await this.#current?.catch(() => undefined);
    if (current && current.expiresAtMs - this.#clock.now().getTime() > RENEW_BEFORE_MS)
      return current.token;
    // Concurrent callers share one request for a new token.
    this.#current = this.#obtain();
    return (await this.#current).token;
  }

  async #obtain(): Promise<{ token: string; expiresAtMs: number }> {
    const { appId, installationId, privateKeyPem } = this.#credentials;
    const operation = `obtain an installation token (GitHub App ${appId}, installation ${installationId})`;
    const answer = await this.#http.call({
      operation,
      method: 'POST',
      path: `/app/installations/${installationId}/access_tokens`,
      token: signAppJwt(appId, privateKeyPem, this.#clock.now()),
    });
    if (answer.status !== 201) throw refused(operation, answer);
    const body = parseAnswer(installationTokenSchema, answer, operation);
    return { token: body.token, expiresAtMs: Date.parse(body.expires_at) };
  }
}
