/**
 * A local GitHub REST double on loopback, for tests and local runs (`npm start --
 * investigate`): it speaks the few calls an investigate run makes (read a repository,
 * create a ref, open and list pull requests, comment on an issue, obtain an App
 * installation token) with GitHub's shapes, refusals (`401`, `404`, `422` for a duplicate
 * pull request and, per repository, for drafts) and `x-ratelimit-*` headers; keeps
 * everything in memory; records every request; and can be told to fail the next calls
 * (5xx, a secondary rate limit, an exhausted rate limit).
 *
 * @example
 * const github = await startGitHubDouble({ tokens: ['t'], repositories: [{ owner: 'o', name: 'r' }] });
 * github.failNext(1, 'server-error');
 * const host = new GitHubCodeHost({ apiBaseUrl: github.url, credentials: { kind: 'token', token: 't' } });
 * // ... the first call is answered 502, the retry succeeds
 * await github.close();
 */
import { createPublicKey } from 'node:crypto';
import { createServer } from 'node:http';
import { listenOnLoopback } from '../loopback/listen.js';
import { onBody } from '../model-server/http.js';
import {
  nextId,
  repositoryKey,
  type DoubleRepository,
  type GitHubDoubleState,
  type PendingFault,
} from './double-state.js';
import { handleRequest } from './handle-request.js';

export interface DoubleRepositoryOptions {
  owner: string;
  name: string;
  /** @default 'main' */
  defaultBranch?: string;
  /** The default branch's commit. @default forty 'a's */
  headSha?: string;
  /** @default false */
  private?: boolean;
  /** False: draft pull requests are refused with GitHub's 422. @default true */
  draftPullRequests?: boolean;
  /** Issue numbers that exist (pull requests are numbered after them). @default [] */
  issues?: number[];
}

export interface GitHubDoubleOptions {
  /** @default a free port */
  port?: number;
  /** The double's clock, for tests that move time (token expiry). @default the wall clock */
  now?: () => Date;
  /** Plain tokens accepted for repository calls. @default [] */
  tokens?: string[];
  /** A GitHub App whose JWTs (checked with `publicKeyPem`) get installation tokens. */
  app?: { appId: string | number; publicKeyPem: string; installationId: number };
  repositories?: DoubleRepositoryOptions[];
}

export interface FailNextOptions {
  /** `slow`: how long the answer is held back, in milliseconds. @default 1000 */
  delayMs?: number;
  /** Only requests whose path contains this. */
  pathIncludes?: string;
  /** Only requests of this method (`POST`). */
  method?: string;
  /** Carry the request out and lose only its answer (a reply lost on the way). */
  afterHandling?: boolean;
  /** Secondary rate limit: the `retry-after` sent, in seconds (fractions allowed). @default 60 */
  retryAfterSeconds?: number;
  /** Exhausted rate limit: seconds until `x-ratelimit-reset`. @default 3600 */
  resetInSeconds?: number;
}

export interface GitHubDouble {
  /** The API base URL: `http://127.0.0.1:PORT`. */
  url: string;
  /** Repositories, tokens, queued faults and every request received. */
  state: GitHubDoubleState;
  /**
   * Answers the next `count` matching requests with a fault instead: a 502, a secondary
   * rate limit, an exhausted rate limit, or (`slow`) the real answer only after `delayMs`.
   */
  failNext(count: number, kind: PendingFault['kind'], options?: FailNextOptions): void;
  addRepository(options: DoubleRepositoryOptions): DoubleRepository;
  close(): Promise<void>;
}

/**
 * Starts the double on loopback.
 *
 * @example
 * const github = await startGitHubDouble({ repositories: [{ owner: 'acme', name: 'shop' }] });
 */
export async function startGitHubDouble(options: GitHubDoubleOptions = {}): Promise<GitHubDouble> {
  const state: GitHubDoubleState = {
    repositories: new Map(),
    tokens: new Map((options.tokens ?? []).map((token) => [token, { expiresAtMs: Infinity }])),
    app: options.app && {
      appId: String(options.app.appId),
      publicKey: createPublicKey(options.app.publicKeyPem),
      installationId: options.app.installationId,
    },
    faults: [],
    requests: [],
    rateLimit: { limit: 5000, used: 0, resetEpochSeconds: 0 },
    now: options.now ?? (() => new Date()),
    timers: new Set(),
    lastId: 0,
  };
  let api = '';
  const server = createServer((req, res) =>
    onBody(req, (raw) => handleRequest(state, api, req, res, raw)),
  );
  const listening = await listenOnLoopback(server, options.port);
  api = listening.url;
  const addRepository = (repository: DoubleRepositoryOptions) => addTo(state, repository);
  for (const repository of options.repositories ?? []) addRepository(repository);
  return {
    url: api,
    state,
    failNext: (count, kind, faultOptions = {}) => {
      for (let index = 0; index < count; index += 1) state.faults.push(faultOf(kind, faultOptions));
    },
    addRepository,
    close: () => {
      for (const timer of state.timers) clearTimeout(timer);
      state.timers.clear();
      return listening.close();
    },
  };
}

function addTo(state: GitHubDoubleState, options: DoubleRepositoryOptions): DoubleRepository {
  const defaultBranch = options.defaultBranch ?? 'main';
  const issues = options.issues ?? [];
  const repository: DoubleRepository = {
    id: nextId(state),
    owner: options.owner,
    name: options.name,
    defaultBranch,
    private: options.private ?? false,
    draftPullRequests: options.draftPullRequests ?? true,
    refs: new Map([[`refs/heads/${defaultBranch}`, options.headSha ?? 'a'.repeat(40)]]),
    pulls: [],
    issues: new Set(issues),
    comments: [],
    lastNumber: Math.max(0, ...issues),
  };
  state.repositories.set(repositoryKey(options.owner, options.name), repository);
  return repository;
}

function faultOf(kind: PendingFault['kind'], options: FailNextOptions): PendingFault {
  const { delayMs = 1_000, afterHandling = false, pathIncludes, method, ...answer } = options;
  const where = {
    ...(pathIncludes === undefined ? {} : { pathIncludes }),
    ...(method === undefined ? {} : { method }),
  };
  if (kind === 'slow') return { kind, delayMs, afterHandling: false, ...where };
  return { kind, afterHandling, ...where, ...answer };
}
