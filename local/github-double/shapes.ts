/**
 * GitHub's REST answer shapes for the calls the double speaks (the fields GitHub's
 * documentation shows for each, minus the long tail of `*_url` templates), built from the
 * double's state. `api` is the double's own URL: API links point back at it, web links
 * (`html_url`) at `api` too, as GitHub Enterprise Server serves both from one host.
 */
import type { DoubleComment, DoublePull, DoubleRepository } from './double-state.js';

const DOCS = 'https://docs.github.com/rest';

/** GitHub's error body: `{ message, errors?, documentation_url, status }`. */
export function errorBody(
  status: number,
  message: string,
  options: { errors?: unknown[]; docs?: string } = {},
): Record<string, unknown> {
  return {
    message,
    ...(options.errors === undefined ? {} : { errors: options.errors }),
    documentation_url: options.docs ?? DOCS,
    status: String(status),
  };
}

export function botUser(api: string): Record<string, unknown> {
  return {
    login: 'ralph-cloud[bot]',
    id: 1,
    node_id: 'BOT_double',
    type: 'Bot',
    site_admin: false,
    url: `${api}/users/ralph-cloud%5Bbot%5D`,
    html_url: `${api}/apps/ralph-cloud`,
  };
}

function ownerOf(api: string, repo: DoubleRepository): Record<string, unknown> {
  return {
    login: repo.owner,
    id: 1000,
    node_id: `O_${repo.owner}`,
    type: 'Organization',
    site_admin: false,
    url: `${api}/users/${repo.owner}`,
    html_url: `${api}/${repo.owner}`,
  };
}

export function repositoryShape(api: string, repo: DoubleRepository): Record<string, unknown> {
  const fullName = `${repo.owner}/${repo.name}`;
  return {
    id: repo.id,
    node_id: `R_${repo.id}`,
    name: repo.name,
    full_name: fullName,
    owner: ownerOf(api, repo),
    private: repo.private,
    visibility: repo.private ? 'private' : 'public',
    html_url: `${api}/${fullName}`,
    url: `${api}/repos/${fullName}`,
    fork: false,
    archived: false,
    disabled: false,
    default_branch: repo.defaultBranch,
    permissions: { admin: false, maintain: false, push: true, triage: true, pull: true },
  };
}

export function refShape(api: string, repo: DoubleRepository, ref: string, sha: string) {
  const base = `${api}/repos/${repo.owner}/${repo.name}/git`;
  return {
    ref,
    node_id: `REF_${Buffer.from(ref).toString('base64url')}`,
    url: `${base}/${ref}`,
    object: { type: 'commit', sha, url: `${base}/commits/${sha}` },
  };
}

function branchShape(api: string, repo: DoubleRepository, ref: string, sha: string) {
  return {
    label: `${repo.owner}:${ref}`,
    ref,
    sha,
    user: ownerOf(api, repo),
    repo: repositoryShape(api, repo),
  };
}

export function pullShape(
  api: string,
  repo: DoubleRepository,
  pull: DoublePull,
): Record<string, unknown> {
  const fullName = `${repo.owner}/${repo.name}`;
  return {
    url: `${api}/repos/${fullName}/pulls/${pull.number}`,
    id: pull.id,
    node_id: `PR_${pull.id}`,
    html_url: `${api}/${fullName}/pull/${pull.number}`,
    issue_url: `${api}/repos/${fullName}/issues/${pull.number}`,
    number: pull.number,
    state: pull.state,
    locked: false,
    title: pull.title,
    user: botUser(api),
    body: pull.body,
    labels: [],
    created_at: pull.createdAt,
    updated_at: pull.createdAt,
    closed_at: null,
    merged_at: null,
    merge_commit_sha: null,
    draft: pull.draft,
    head: branchShape(api, repo, pull.head, pull.headSha),
    base: branchShape(api, repo, pull.base, repo.refs.get(`refs/heads/${pull.base}`) ?? ''),
    author_association: 'NONE',
  };
}

export function commentShape(
  api: string,
  repo: DoubleRepository,
  comment: DoubleComment,
): Record<string, unknown> {
  const fullName = `${repo.owner}/${repo.name}`;
  return {
    id: comment.id,
    node_id: `IC_${comment.id}`,
    url: `${api}/repos/${fullName}/issues/comments/${comment.id}`,
    html_url: `${api}/${fullName}/issues/${comment.issueNumber}#issuecomment-${comment.id}`,
    body: comment.body,
    user: botUser(api),
    created_at: comment.createdAt,
    updated_at: comment.createdAt,
    issue_url: `${api}/repos/${fullName}/issues/${comment.issueNumber}`,
    author_association: 'NONE',
  };
}
