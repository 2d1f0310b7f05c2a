/**
 * What the GitHub adapter's integration tests share: the GitHub double started before each
 * test (fresh repositories, no faults left over) and closed after it, and the adapter
 * pointed at it with short waits.
 */
import { afterEach, beforeEach } from 'vitest';
import { GitHubCodeHost } from '../../lambdas/adapters/github/github-code-host.js';
import type { GitHubConfigInput } from '../../lambdas/adapters/github/github-config.js';
import type { Clock } from '../../lambdas/ports.js';
import {
  startGitHubDouble,
  type GitHubDouble,
  type GitHubDoubleOptions,
} from '../../local/github-double/server.js';

/**
 * Registers the file's hooks; `ready` receives each test's double once it listens.
 *
 * @example
 * let github: GitHubDouble;
 * useGitHubDouble({ tokens: ['t'] }, (started) => (github = started));
 */
export function useGitHubDouble(
  options: GitHubDoubleOptions,
  ready: (double: GitHubDouble) => void,
): void {
  let double: GitHubDouble | undefined;
  beforeEach(async () => {
    double = await startGitHubDouble(options);
    ready(double);
  });
  afterEach(async () => {
    await double?.close();
  });
}

/** The adapter against `url`, with millisecond backoffs so retries do not slow the tests. */
export function codeHostAt(
  url: string,
  credentials: GitHubConfigInput['credentials'],
  overrides: Partial<GitHubConfigInput> = {},
  clock?: Clock,
): GitHubCodeHost {
  return new GitHubCodeHost(
    {
      apiBaseUrl: url,
      credentials,
      timeoutMs: 2_000,
      initialBackoffMs: 2,
      maxBackoffMs: 10,
      maxRateLimitWaitMs: 1_000,
      ...overrides,
    },
    clock === undefined ? {} : { clock },
  );
}
