/**
 * The GitHub code host of a deployed Lambda, its credentials read from Secrets Manager on
 * the first call (a run whose iterations never reach a pull request never reads them) and
 * kept for the container's life; a failed read is not kept, so the next call tries again.
 *
 * The secret holds JSON: `{"kind":"token","token":"..."}`, or a GitHub App's
 * `{"kind":"app","appId":123,"installationId":456,"privateKeyPem":"-----BEGIN ..."}`; a
 * secret that is not JSON is taken as a plain token.
 */
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { ConfigurationError } from '../../core/errors.js';
import { formatZodIssues } from '../../core/shared/validation.js';
import type { CodeHost } from '../../ports.js';
import { keptUntilFailure } from '../kept-until-failure.js';
import { readSecretString } from '../secret-string.js';
import { GitHubCodeHost } from './github-code-host.js';
import { gitHubCredentialsSchema, type GitHubCredentials } from './github-config.js';

/**
 * @example
 * const host = secretCodeHost(createSecretsClient({}), process.env.GITHUB_SECRET_ARN!, {});
 */
export function secretCodeHost(
  secrets: SecretsManagerClient,
  secretId: string,
  options: { apiBaseUrl?: string },
): CodeHost {
  return lazyCodeHost(async () => {
    const text = await readSecretString(secrets, secretId, 'GitHub credentials');
    return new GitHubCodeHost({
      ...(options.apiBaseUrl === undefined ? {} : { apiBaseUrl: options.apiBaseUrl }),
      credentials: credentialsOf(text, secretId),
    });
  });
}

/** A secret's text as credentials; the message names the fields, never their values. */
export function credentialsOf(text: string, secretId: string): GitHubCredentials {
  if (!text.startsWith('{')) return { kind: 'token', token: text };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ConfigurationError(`secret ${secretId} starts like JSON but is not JSON`);
  }
  const parsed = gitHubCredentialsSchema.safeParse(value);
  if (!parsed.success)
    throw new ConfigurationError(
      `secret ${secretId} holds no GitHub credentials: ${formatZodIssues(parsed.error).join('; ')} (expected {"kind":"token","token":...} or {"kind":"app","appId":...,"installationId":...,"privateKeyPem":...})`,
    );
  return parsed.data;
}

/** A CodeHost built on its first call. */
function lazyCodeHost(build: () => Promise<CodeHost>): CodeHost {
  const host = keptUntilFailure(build);
  return {
    getRepository: async (repo) => (await host()).getRepository(repo),
    createBranch: async (repo, branch, sha) => (await host()).createBranch(repo, branch, sha),
    openPullRequest: async (repo, input) => (await host()).openPullRequest(repo, input),
    findOpenPullRequest: async (repo, branch) => (await host()).findOpenPullRequest(repo, branch),
    listOpenPullRequests: async (repo, options) =>
      (await host()).listOpenPullRequests(repo, options),
    commentOnIssue: async (repo, issue, body) => (await host()).commentOnIssue(repo, issue, body),
  };
}
