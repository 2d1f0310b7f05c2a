/**
 * The repository calls the double speaks, answered from and into its state with GitHub's
 * shapes and refusals: read a repository, create a ref, open and list (paged) pull requests
 * (422 for a duplicate and, when the repository has no drafts, for a draft), comment on an
 * issue.
 */
import type { HttpAnswer } from '../model-server/http.js';
import { nextId, type DoubleRepository, type GitHubDoubleState } from './double-state.js';
import { commentShape, errorBody, pullShape, refShape, repositoryShape } from './shapes.js';

/** One repository call: its repository, body, query and the double's URL. */
export interface RepoCall {
  state: GitHubDoubleState;
  repo: DoubleRepository;
  api: string;
  body: unknown;
  query: URLSearchParams;
  now: Date;
}

const DOCS = {
  refs: 'https://docs.github.com/rest/git/refs#create-a-reference',
  pulls: 'https://docs.github.com/rest/pulls/pulls#create-a-pull-request',
  comments: 'https://docs.github.com/rest/issues/comments#create-an-issue-comment',
};

export function getRepository({ repo, api }: RepoCall): HttpAnswer {
  return { status: 200, body: repositoryShape(api, repo) };
}

export function createRef({ repo, api, body }: RepoCall): HttpAnswer {
  const { ref, sha } = fields(body, ['ref', 'sha']);
  if (ref === undefined || sha === undefined)
    return invalid(`Invalid request.\n\n"ref", "sha" weren't supplied.`, DOCS.refs);
  if (!/^refs\/[^/]+\/.+/.test(ref))
    return invalid('Reference name must start with refs/ and have at least two slashes', DOCS.refs);
  if (!/^[0-9a-f]{40}$/.test(sha)) return invalid('Object does not exist', DOCS.refs);
  if (repo.refs.has(ref)) return invalid('Reference already exists', DOCS.refs);
  repo.refs.set(ref, sha);
  return { status: 201, body: refShape(api, repo, ref, sha) };
}

export function listPulls({ repo, api, query }: RepoCall): HttpAnswer {
  const state = query.get('state') ?? 'open';
  const head = query.get('head');
  const pulls = repo.pulls.filter(
    (pull) =>
      (state === 'all' || pull.state === state) &&
      (head === null || `${repo.owner}:${pull.head}` === head || pull.head === head),
  );
  // GitHub's paging: 30 a page unless `per_page` (at most 100) says otherwise.
  const perPage = Math.min(100, Math.max(1, Number(query.get('per_page') ?? 30) || 30));
  const page = Math.max(1, Number(query.get('page') ?? 1) || 1);
  const onPage = pulls.slice((page - 1) * perPage, page * perPage);
  return { status: 200, body: onPage.map((pull) => pullShape(api, repo, pull)) };
}

export function createPull(call: RepoCall): HttpAnswer {
  const { repo, api, body, now } = call;
  const { title, head, base, body: text } = fields(body, ['title', 'head', 'base', 'body']);
  const draft = (body as { draft?: unknown } | undefined)?.draft === true;
  if (title === undefined || head === undefined || base === undefined)
    return invalid(`Invalid request.\n\n"title", "head", "base" weren't supplied.`, DOCS.pulls);
  const branch = head.includes(':') ? head.slice(head.indexOf(':') + 1) : head;
  const headSha = repo.refs.get(`refs/heads/${branch}`);
  const problems = [
    ...(headSha === undefined ? [{ resource: 'PullRequest', field: 'head', code: 'invalid' }] : []),
    ...(repo.refs.has(`refs/heads/${base}`)
      ? []
      : [{ resource: 'PullRequest', field: 'base', code: 'invalid' }]),
  ];
  if (problems.length > 0 || headSha === undefined) return validationFailed(problems);
  if (
    repo.pulls.some((pull) => pull.state === 'open' && pull.head === branch && pull.base === base)
  )
    return validationFailed([
      {
        resource: 'PullRequest',
        code: 'custom',
        message: `A pull request already exists for ${repo.owner}:${branch}.`,
      },
    ]);
  if (draft && !repo.draftPullRequests)
    return invalid('Draft pull requests are not supported in this repository.', DOCS.pulls);
  repo.lastNumber += 1;
  const pull = {
    id: nextId(call.state),
    number: repo.lastNumber,
    title,
    body: text ?? null,
    head: branch,
    base,
    headSha,
    draft,
    state: 'open' as const,
    createdAt: isoSeconds(now),
  };
  repo.pulls.push(pull);
  return { status: 201, body: pullShape(api, repo, pull) };
}

export function createComment(call: RepoCall, issueNumber: number): HttpAnswer {
  const { repo, api, body, now } = call;
  const { body: text } = fields(body, ['body']);
  const exists =
    repo.issues.has(issueNumber) || repo.pulls.some((pull) => pull.number === issueNumber);
  if (!exists) return { status: 404, body: errorBody(404, 'Not Found', { docs: DOCS.comments }) };
  if (text === undefined)
    return invalid(`Invalid request.\n\n"body" wasn't supplied.`, DOCS.comments);
  const comment = { id: nextId(call.state), issueNumber, body: text, createdAt: isoSeconds(now) };
  repo.comments.push(comment);
  return { status: 201, body: commentShape(api, repo, comment) };
}

/** The string fields of a JSON body that are there. */
function fields<K extends string>(body: unknown, keys: readonly K[]): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  if (typeof body !== 'object' || body === null) return out;
  for (const key of keys) {
    const value = (body as Record<string, unknown>)[key];
    if (typeof value === 'string') out[key] = value;
  }
  return out;
}

function invalid(message: string, docs: string): HttpAnswer {
  return { status: 422, body: errorBody(422, message, { docs }) };
}

function validationFailed(errors: unknown[]): HttpAnswer {
  return { status: 422, body: errorBody(422, 'Validation Failed', { errors, docs: DOCS.pulls }) };
}

/** GitHub's timestamps: ISO 8601 in whole seconds. */
function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
