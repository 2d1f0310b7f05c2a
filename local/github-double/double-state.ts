/**
 * What the GitHub double keeps in memory: its repositories (refs, pull requests, issue
 * comments), the tokens it accepts, the faults queued for the next requests, and every
 * request it received, for tests to assert on.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { KeyObject } from 'node:crypto';

export interface DoublePull {
  id: number;
  number: number;
  title: string;
  body: string | null;
  head: string;
  base: string;
  headSha: string;
  draft: boolean;
  state: 'open' | 'closed';
  createdAt: string;
}

export interface DoubleComment {
  id: number;
  issueNumber: number;
  body: string;
  createdAt: string;
}

export interface DoubleRepository {
  id: number;
  owner: string;
  name: string;
  defaultBranch: string;
  private: boolean;
  /** False: a draft pull request is refused with GitHub's 422 (a plan without drafts). */
  draftPullRequests: boolean;
  /** Full ref name (`refs/heads/main`) → commit sha. */
  refs: Map<string, string>;
  pulls: DoublePull[];
  /** Issue numbers that exist besides pull requests (which are issues too). */
  issues: Set<number>;
  comments: DoubleComment[];
  /** The last issue or pull request number handed out. */
  lastNumber: number;
}

/** A queued fault: the next matching request is answered with it. */
export type PendingFault =
  | {
      kind: 'server-error' | 'secondary-rate-limit' | 'rate-limit-exhausted';
      /** Only requests whose path contains this. */
      pathIncludes?: string;
      /** Only requests of this method (`POST`). */
      method?: string;
      /** The request is carried out first and only its answer lost (a reply lost on the way). */
      afterHandling: boolean;
      retryAfterSeconds?: number;
      resetInSeconds?: number;
    }
  | {
      /** The request is carried out and answered only after `delayMs`. */
      kind: 'slow';
      pathIncludes?: string;
      method?: string;
      afterHandling: false;
      delayMs: number;
    };

export interface RecordedRequest {
  method: string;
  /** Without the query. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, or the text as received. */
  body: unknown;
  /** The status answered. */
  status?: number;
}

export interface DoubleApp {
  appId: string;
  publicKey: KeyObject;
  installationId: number;
}

export interface GitHubDoubleState {
  repositories: Map<string, DoubleRepository>;
  /** Tokens accepted for repository calls (plain tokens, and the installation tokens issued). */
  tokens: Map<string, { expiresAtMs: number }>;
  app: DoubleApp | undefined;
  faults: PendingFault[];
  requests: RecordedRequest[];
  rateLimit: { limit: number; used: number; resetEpochSeconds: number };
  /** The double's clock (token and JWT expiry, timestamps, rate-limit resets). */
  now: () => Date;
  /** Slow answers still waiting, cancelled on close. */
  timers: Set<NodeJS.Timeout>;
  lastId: number;
}

/** The key of a repository in `repositories`. */
export function repositoryKey(owner: string, name: string): string {
  return `${owner}/${name}`.toLowerCase();
}

export function nextId(state: GitHubDoubleState): number {
  state.lastId += 1;
  return state.lastId;
}
