/**
 * The code host of the local stack, for investigate runs' pull requests: the one a caller
 * gives (a test's GitHub double), else GitHub at RALPH_GITHUB_API_URL (default
 * api.github.com) with the token in RALPH_GITHUB_TOKEN; without a token, none (a verified
 * fix is then refused with that reason, and the run's report says so).
 */
import { GitHubCodeHost } from '../lambdas/adapters/github/github-code-host.js';
import type { CodeHost } from '../lambdas/ports.js';

export function localCodeHost(
  given: CodeHost | undefined,
  env: NodeJS.ProcessEnv = process.env,
): CodeHost | undefined {
  if (given) return given;
  const token = env.RALPH_GITHUB_TOKEN;
  if (!token) return undefined;
  return new GitHubCodeHost({
    ...(env.RALPH_GITHUB_API_URL ? { apiBaseUrl: env.RALPH_GITHUB_API_URL } : {}),
    credentials: { kind: 'token', token },
  });
}
