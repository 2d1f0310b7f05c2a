/**
 * GitHubCodeHost (lambdas/adapters/github/) against the GitHub double
 * (local/github-double/) with a plain token: the calls an investigate run makes, the 422s
 * it turns into answers or typed errors, and the retry policy (5xx, rate limits, network
 * errors) over HTTP.
 */
import { describe, expect, it } from 'vitest';
import {
  CodeHostRejectedError,
  CodeHostUnavailableError,
  DraftPullRequestsUnsupportedError,
  InvalidInputError,
  TransientError,
} from '../../lambdas/core/errors.js';
import type { OpenPullRequestInput } from '../../lambdas/ports.js';
import type { GitHubDouble } from '../../local/github-double/server.js';
import { codeHostAt, useGitHubDouble } from '../support/github-double.js';
import { failureOf } from '../support/model-adapters.js';

const TOKEN = 'ghp_plainTokenThatMustNeverShow';
const SHOP = { owner: 'acme', name: 'shop' };
const FREE = { owner: 'acme', name: 'free-plan' };
const SHA = 'b'.repeat(40);
const BRANCH = 'ralph/fix/ab12cd34';
let github: GitHubDouble;

useGitHubDouble(
  {
    tokens: [TOKEN],
    repositories: [
      { ...SHOP, issues: [7] },
      { ...FREE, private: true, draftPullRequests: false },
    ],
  },
  (started) => (github = started),
);

const host = (overrides = {}) => codeHostAt(github.url, { kind: 'token', token: TOKEN }, overrides);

const draft: OpenPullRequestInput = {
  head: BRANCH,
  base: 'main',
  title: 'Fix TypeError in checkout total',
  body: 'Root cause: ...',
  draft: true,
};

async function branchAndDraft(repo = SHOP) {
  await host().createBranch(repo, BRANCH, SHA);
  return host().openPullRequest(repo, draft);
}

const postsTo = (suffix: string) =>
  github.state.requests.filter(
    (request) => request.method === 'POST' && request.path.endsWith(suffix),
  );

const pullsOf = (repo: { owner: string; name: string }) =>
  github.state.repositories.get(`${repo.owner}/${repo.name}`)?.pulls ?? [];

describe('Class: GitHubCodeHost', () => {
  describe('Method: getRepository', () => {
    it('reads the default branch, sending GitHub’s headers and the token', async () => {
      // Act
      const repository = await host({ userAgent: 'ralph-test' }).getRepository(SHOP);

      // Assess
      expect(repository).toEqual({
        owner: 'acme',
        name: 'shop',
        defaultBranch: 'main',
        private: false,
        htmlUrl: `${github.url}/acme/shop`,
      });
      expect(github.state.requests[0]?.headers).toMatchObject({
        accept: 'application/vnd.github+json',
        'x-github-api-version': '2022-11-28',
        'user-agent': 'ralph-test',
        authorization: `Bearer ${TOKEN}`,
      });
    });

    it('turns a bad token into a refusal made once, naming the call but never the token', async () => {
      // Act
      const error = await failureOf(
        codeHostAt(github.url, { kind: 'token', token: 'ghp_wrongTokenNeverShown' }).getRepository(
          SHOP,
        ),
      );

      // Assess
      expect(error).toBeInstanceOf(CodeHostRejectedError);
      expect(error).toMatchObject({ status: 401, where: 'GET /repos/acme/shop' });
      expect(error.message).toContain('read repository acme/shop');
      expect(error.message).toContain('Bad credentials');
      expect(JSON.stringify({ ...error, message: error.message })).not.toContain('Never');
      expect(github.state.requests).toHaveLength(1);
    });
  });

  describe('Method: createBranch', () => {
    it('creates the ref, and reports an existing one as not created', async () => {
      // Act
      const first = await host().createBranch(SHOP, BRANCH, SHA);
      const again = await host().createBranch(SHOP, BRANCH, 'c'.repeat(40));

      // Assess
      expect(first).toEqual({ created: true });
      expect(again).toEqual({ created: false });
      expect(github.state.repositories.get('acme/shop')?.refs.get(`refs/heads/${BRANCH}`)).toBe(
        SHA,
      );
    });
  });

  describe('Method: openPullRequest', () => {
    it('opens a draft pull request', async () => {
      // Act
      const opened = await branchAndDraft();

      // Assess
      expect(opened).toEqual({
        created: true,
        draftFellBack: false,
        pullRequest: {
          number: 8,
          htmlUrl: `${github.url}/acme/shop/pull/8`,
          state: 'open',
          draft: true,
          title: draft.title,
          head: BRANCH,
          base: 'main',
        },
      });
      expect(postsTo('/pulls')[0]?.body).toEqual(draft);
    });

    it('returns the open pull request GitHub says already exists (a retried step)', async () => {
      // Prepare
      const first = await branchAndDraft();

      // Act
      const second = await host().openPullRequest(SHOP, draft);

      // Assess
      expect(second).toEqual({ ...first, created: false });
      expect(pullsOf(SHOP)).toHaveLength(1);
      const lookUp = github.state.requests.at(-1);
      expect(lookUp?.method).toBe('GET');
      expect(Object.fromEntries(lookUp?.query ?? [])).toEqual({
        head: `acme:${BRANCH}`,
        state: 'open',
      });
    });

    it('refuses a draft where the plan has none with a typed error, opening nothing', async () => {
      // Act
      const error = await failureOf(branchAndDraft(FREE));

      // Assess
      expect(error).toBeInstanceOf(DraftPullRequestsUnsupportedError);
      expect(error).toMatchObject({
        code: 'DRAFT_PULL_REQUESTS_UNSUPPORTED',
        repository: 'acme/free-plan',
      });
      expect(pullsOf(FREE)).toEqual([]);
    });

    it('opens a normal pull request instead when told to', async () => {
      // Prepare
      await host().createBranch(FREE, BRANCH, SHA);

      // Act
      const opened = await host().openPullRequest(FREE, {
        ...draft,
        ifDraftUnsupported: 'open-ready',
      });

      // Assess
      expect(opened).toMatchObject({
        created: true,
        draftFellBack: true,
        pullRequest: { draft: false },
      });
      expect(pullsOf(FREE)).toHaveLength(1);
    });

    it('retries a 5xx and opens one pull request', async () => {
      // Prepare
      await host().createBranch(SHOP, BRANCH, SHA);
      github.failNext(2, 'server-error', { pathIncludes: '/pulls' });

      // Act
      const opened = await host().openPullRequest(SHOP, draft);

      // Assess
      expect(opened.created).toBe(true);
      expect(postsTo('/pulls').map((request) => request.status)).toEqual([502, 502, 201]);
      expect(pullsOf(SHOP)).toHaveLength(1);
    });

    it('after a 5xx whose pull request was opened anyway, returns that one (no second)', async () => {
      // Prepare
      await host().createBranch(SHOP, BRANCH, SHA);
      github.failNext(1, 'server-error', { pathIncludes: '/pulls', afterHandling: true });

      // Act
      const opened = await host().openPullRequest(SHOP, draft);

      // Assess
      expect(opened).toMatchObject({ created: false, pullRequest: { number: 8, draft: true } });
      expect(postsTo('/pulls').map((request) => request.status)).toEqual([502, 422]);
      expect(pullsOf(SHOP)).toHaveLength(1);
    });

    it('gives up after its tries with a transient error when the 5xx persist', async () => {
      // Prepare
      await host().createBranch(SHOP, BRANCH, SHA);
      github.failNext(5, 'server-error', { pathIncludes: '/pulls' });

      // Act
      const error = await failureOf(host({ maxTries: 3 }).openPullRequest(SHOP, draft));

      // Assess
      expect(error).toBeInstanceOf(CodeHostUnavailableError);
      expect(error).toBeInstanceOf(TransientError);
      expect(error).toMatchObject({ name: 'TransientError', status: 502, attempts: 3 });
      expect(error.message).toContain('POST /repos/acme/shop/pulls');
      expect(pullsOf(SHOP)).toEqual([]);
    });
  });

  describe('Rate limits', () => {
    it('waits out a secondary rate limit’s retry-after, then succeeds', async () => {
      // Prepare
      github.failNext(1, 'secondary-rate-limit', { retryAfterSeconds: 0.3 });
      const started = Date.now();

      // Act
      const repository = await host().getRepository(SHOP);

      // Assess
      expect(repository.defaultBranch).toBe('main');
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
      expect(github.state.requests.map((request) => request.status)).toEqual([403, 200]);
    });

    it('fails at once when the wait asked for is longer than a call may wait', async () => {
      // Prepare
      github.failNext(1, 'rate-limit-exhausted', { resetInSeconds: 3600 });
      const started = Date.now();

      // Act
      const error = await failureOf(host({ maxRateLimitWaitMs: 500 }).getRepository(SHOP));

      // Assess
      expect(error).toBeInstanceOf(CodeHostUnavailableError);
      expect(error.message).toMatch(/asks to wait 360\d s, more than the 1 s a call may wait/);
      expect(Date.now() - started).toBeLessThan(500);
      expect(github.state.requests).toHaveLength(1);
    });

    it('sends GitHub’s rate-limit headers with every answer', async () => {
      // Act
      const response = await fetch(`${github.url}/repos/acme/shop`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });

      // Assess
      expect(Object.fromEntries(response.headers)).toMatchObject({
        'x-ratelimit-limit': '5000',
        'x-ratelimit-remaining': '4999',
        'x-ratelimit-used': '1',
        'x-ratelimit-resource': 'core',
        'x-ratelimit-reset': expect.stringMatching(/^\d+$/),
      });
    });
  });

  describe('Method: listOpenPullRequests', () => {
    it('reads every page of 100 and keeps the open ones whose head has the prefix', async () => {
      // Prepare: 150 open fixes, one closed fix and one other branch, straight into the state
      const repo = github.state.repositories.get('acme/shop');
      if (repo === undefined) throw new Error('no acme/shop on the double');
      const pull = (number: number, head: string, state: 'open' | 'closed' = 'open') => ({
        id: 1000 + number,
        number,
        title: `pull ${number}`,
        body: null,
        head,
        base: 'main',
        headSha: SHA,
        draft: true,
        state,
        createdAt: '2026-03-02T09:00:00Z',
      });
      for (let number = 1; number <= 150; number += 1)
        repo.pulls.push(pull(number, `ralph/fix/${number}`));
      repo.pulls.push(pull(151, 'ralph/fix/closed', 'closed'), pull(152, 'feature/other'));

      // Act
      const open = await host().listOpenPullRequests(SHOP, { headPrefix: 'ralph/fix/' });

      // Assess
      expect(open).toHaveLength(150);
      expect(open.every((found) => found.head.startsWith('ralph/fix/'))).toBe(true);
      const pages = github.state.requests.filter((request) => request.path.endsWith('/pulls'));
      expect(pages.map((request) => request.query.get('page'))).toEqual(['1', '2']);
      expect(pages[0]?.query.get('per_page')).toBe('100');
    });
  });

  describe('Method: commentOnIssue', () => {
    it('comments on an issue and says where', async () => {
      // Act
      const comment = await host().commentOnIssue(SHOP, 7, 'Analysis: ...');

      // Assess
      expect(comment).toEqual({
        id: expect.any(Number),
        htmlUrl: `${github.url}/acme/shop/issues/7#issuecomment-${comment.id}`,
      });
      expect(github.state.repositories.get('acme/shop')?.comments).toMatchObject([
        { issueNumber: 7, body: 'Analysis: ...' },
      ]);
    });

    it('refuses an issue that does not exist, once', async () => {
      // Act
      const error = await failureOf(host().commentOnIssue(SHOP, 99, 'x'));

      // Assess
      expect(error).toBeInstanceOf(CodeHostRejectedError);
      expect(error).toMatchObject({ status: 404, operation: 'comment on issue #99 of acme/shop' });
      expect(github.state.requests).toHaveLength(1);
    });
  });

  describe('Faults and configuration', () => {
    it('retries a connection that fails, then gives up with a transient error', async () => {
      // Prepare
      const url = github.url;
      await github.close();

      // Act
      const error = await failureOf(
        codeHostAt(url, { kind: 'token', token: TOKEN }, { maxTries: 2 }).getRepository(SHOP),
      );

      // Assess
      expect(error).toBeInstanceOf(CodeHostUnavailableError);
      expect(error).toMatchObject({ attempts: 2, status: undefined });
      expect(error.message).toContain('connection failed');
    });

    it('bounds every try with the timeout and retries one that did not answer', async () => {
      // Prepare
      github.failNext(1, 'slow', { delayMs: 1_000 });
      const started = Date.now();

      // Act
      const repository = await host({ timeoutMs: 150 }).getRepository(SHOP);

      // Assess
      expect(repository.name).toBe('shop');
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(github.state.requests).toHaveLength(2);
    });

    it('gives up with a transient error when no try answers in time', async () => {
      // Prepare
      github.failNext(2, 'slow', { delayMs: 1_000 });

      // Act
      const error = await failureOf(host({ timeoutMs: 100, maxTries: 2 }).getRepository(SHOP));

      // Assess
      expect(error).toBeInstanceOf(CodeHostUnavailableError);
      expect(error).toMatchObject({ attempts: 2, status: undefined });
      expect(error.message).toContain('no answer within 100 ms');
    });

    it('refuses a bad configuration before any call, naming the fields but not the token', () => {
      // Act
      const error = (() => {
        try {
          codeHostAt('not a url', { kind: 'token', token: TOKEN }, { maxTries: 0 });
        } catch (caught) {
          return caught as Error;
        }
        throw new Error('expected a refusal');
      })();

      // Assess
      expect(error).toBeInstanceOf(InvalidInputError);
      expect((error as InvalidInputError).issues.join('\n')).toMatch(/apiBaseUrl[\s\S]*maxTries/);
      expect(error.message).not.toContain(TOKEN);
    });
  });
});
