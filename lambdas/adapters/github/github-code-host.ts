/**
 * The CodeHost port over GitHub's REST API (api.github.com, GitHub Enterprise, or the local
 * double): read a repository, create a branch, open a (draft) pull request idempotently,
 * find one by head branch, comment on an issue.
 *
 * Idempotent open: GitHub's 422 "A pull request already exists for OWNER:BRANCH." is
 * answered with that pull request, so a retried step (or a retry after a lost reply) never
 * opens a second. Draft refusal: the 422 "Draft pull requests are not supported in this
 * repository." becomes DraftPullRequestsUnsupportedError, or with `ifDraftUnsupported:
 * 'open-ready'` a normal pull request.
 */
import { DraftPullRequestsUnsupportedError } from '../../core/errors.js';
import { parseOrThrow } from '../../core/shared/validation.js';
import type {
  Clock,
  CodeHost,
  CodeHostRepo,
  CodeHostRepository,
  OpenedPullRequest,
  OpenPullRequestInput,
  PullRequest,
} from '../../ports.js';
import { systemClock } from '../clock.js';
import { gitHubConfigSchema, type GitHubConfigInput } from './github-config.js';
import { GitHubHttp, refused, type GitHubCall } from './github-http.js';
import {
  errorMessages,
  issueCommentSchema,
  pullRequestListSchema,
  pullRequestSchema,
  repositorySchema,
  toPullRequest,
  toRepository,
} from './github-responses.js';
import { tokenSource, type GitHubTokenSource } from './github-tokens.js';
import { parseAnswer } from './parse-answer.js';

const ALREADY_EXISTS = /A pull request already exists for/i;
const DRAFTS_UNSUPPORTED = /Draft pull requests are not supported/i;
const REFERENCE_EXISTS = /Reference already exists/i;
/** GitHub's largest page. */
const PAGE_SIZE = 100;
/** Pages read at most: 1,000 open pull requests is far past any cap worth counting to. */
const MAX_PAGES = 10;

export class GitHubCodeHost implements CodeHost {
  readonly #http: GitHubHttp;
  readonly #tokens: GitHubTokenSource;

  /**
   * Checks `config` first (InvalidInputError naming each bad field; never its values).
   *
   * @example
   * const host = new GitHubCodeHost({ credentials: { kind: 'token', token } });
   * await host.openPullRequest({ owner: 'o', name: 'r' }, { head: 'ralph/fix/ab12', base: 'main', title, body, draft: true });
   */
  constructor(config: GitHubConfigInput, options: { clock?: Clock; random?: () => number } = {}) {
    const parsed = parseOrThrow(gitHubConfigSchema, config, 'GitHub configuration');
    const clock = options.clock ?? systemClock;
    this.#http = new GitHubHttp(parsed, { clock, ...options });
    this.#tokens = tokenSource(parsed.credentials, this.#http, clock);
  }

  async getRepository(repo: CodeHostRepo): Promise<CodeHostRepository> {
    const operation = `read repository ${slug(repo)}`;
    const answer = await this.#call({ operation, method: 'GET', path: repoPath(repo) });
    if (answer.status !== 200) throw refused(operation, answer);
    return toRepository(parseAnswer(repositorySchema, answer, operation));
  }

  async createBranch(
    repo: CodeHostRepo,
    branch: string,
    sha: string,
  ): Promise<{ created: boolean }> {
    const operation = `create branch ${branch} in ${slug(repo)}`;
    const answer = await this.#call({
      operation,
      method: 'POST',
      path: `${repoPath(repo)}/git/refs`,
      body: { ref: `refs/heads/${branch}`, sha },
    });
    if (answer.status === 201) return { created: true };
    if (answer.status === 422 && mentions(answer.body, REFERENCE_EXISTS)) return { created: false };
    throw refused(operation, answer);
  }

  async openPullRequest(
    repo: CodeHostRepo,
    input: OpenPullRequestInput,
  ): Promise<OpenedPullRequest> {
    const operation = `open a ${input.draft ? 'draft ' : ''}pull request from ${input.head} in ${slug(repo)}`;
    const answer = await this.#call({
      operation,
      method: 'POST',
      path: `${repoPath(repo)}/pulls`,
      body: {
        title: input.title,
        head: input.head,
        base: input.base,
        body: input.body,
        draft: input.draft,
      },
    });
    if (answer.status === 201) {
      const pullRequest = toPullRequest(parseAnswer(pullRequestSchema, answer, operation));
      return { pullRequest, created: true, draftFellBack: false };
    }
    if (answer.status === 422 && mentions(answer.body, ALREADY_EXISTS)) {
      const existing = await this.findOpenPullRequest(repo, input.head);
      // Closed between GitHub's refusal and our look-up: nothing to return, say so.
      if (existing === undefined) throw refused(operation, answer);
      return { pullRequest: existing, created: false, draftFellBack: false };
    }
    if (answer.status === 422 && input.draft && mentions(answer.body, DRAFTS_UNSUPPORTED)) {
      if (input.ifDraftUnsupported !== 'open-ready')
        throw new DraftPullRequestsUnsupportedError(slug(repo), {
          cause: refused(operation, answer),
        });
      const opened = await this.openPullRequest(repo, { ...input, draft: false });
      return { ...opened, draftFellBack: true };
    }
    throw refused(operation, answer);
  }

  async findOpenPullRequest(repo: CodeHostRepo, branch: string): Promise<PullRequest | undefined> {
    const operation = `find the open pull request from ${branch} in ${slug(repo)}`;
    const head = encodeURIComponent(`${repo.owner}:${branch}`);
    const answer = await this.#call({
      operation,
      method: 'GET',
      path: `${repoPath(repo)}/pulls?head=${head}&state=open`,
    });
    if (answer.status !== 200) throw refused(operation, answer);
    const [first] = parseAnswer(pullRequestListSchema, answer, operation);
    return first === undefined ? undefined : toPullRequest(first);
  }

  /** Reads `per_page=100` pages until a short one, at most {@link MAX_PAGES}. */
  async listOpenPullRequests(
    repo: CodeHostRepo,
    { headPrefix }: { headPrefix: string },
  ): Promise<PullRequest[]> {
    const operation = `list the open pull requests of ${slug(repo)}`;
    const found: PullRequest[] = [];
    for (let page = 1; page <= MAX_PAGES; page += 1) {
      const answer = await this.#call({
        operation,
        method: 'GET',
        path: `${repoPath(repo)}/pulls?state=open&per_page=${PAGE_SIZE}&page=${page}`,
      });
      if (answer.status !== 200) throw refused(operation, answer);
      const pulls = parseAnswer(pullRequestListSchema, answer, operation);
      found.push(...pulls.map(toPullRequest).filter((pull) => pull.head.startsWith(headPrefix)));
      if (pulls.length < PAGE_SIZE) break;
    }
    return found;
  }

  async commentOnIssue(
    repo: CodeHostRepo,
    issueNumber: number,
    body: string,
  ): Promise<{ id: number; htmlUrl: string }> {
    const operation = `comment on issue #${issueNumber} of ${slug(repo)}`;
    const answer = await this.#call({
      operation,
      method: 'POST',
      path: `${repoPath(repo)}/issues/${issueNumber}/comments`,
      body: { body },
    });
    if (answer.status !== 201) throw refused(operation, answer);
    const comment = parseAnswer(issueCommentSchema, answer, operation);
    return { id: comment.id, htmlUrl: comment.html_url };
  }

  async #call(call: Omit<GitHubCall, 'token'>) {
    return this.#http.call({ ...call, token: await this.#tokens.token() });
  }
}

function slug(repo: CodeHostRepo): string {
  return `${repo.owner}/${repo.name}`;
}

function repoPath(repo: CodeHostRepo): string {
  return `/repos/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.name)}`;
}

function mentions(body: unknown, pattern: RegExp): boolean {
  return errorMessages(body).some((message) => pattern.test(message));
}
