/**
 * One request through the GitHub double: recorded; a queued fault taken before it (the
 * request is not carried out) or after it (carried out, its answer lost); credentials
 * checked; routed; answered with GitHub's headers (`x-ratelimit-*`, `x-github-request-id`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseJsonOr } from '../offline-judge/parse-json.js';
import { sendJson, type HttpAnswer } from '../model-server/http.js';
import { createInstallationToken } from './app-routes.js';
import { bearerOf, checkToken } from './auth.js';
import { repositoryKey, type GitHubDoubleState, type RecordedRequest } from './double-state.js';
import { faultAnswer, takeFault } from './faults.js';
import {
  createComment,
  createPull,
  createRef,
  getRepository,
  listPulls,
  type RepoCall,
} from './repo-routes.js';
import { errorBody } from './shapes.js';

const TOKEN_PATH = /^\/app\/installations\/(\d+)\/access_tokens$/;
const REPO_PATH = /^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/;
const COMMENTS_PATH = /^\/issues\/(\d+)\/comments$/;

export function handleRequest(
  state: GitHubDoubleState,
  api: string,
  req: IncomingMessage,
  res: ServerResponse,
  raw: string,
): void {
  const url = new URL(req.url ?? '/', api);
  const received: RecordedRequest = {
    method: req.method ?? '',
    path: url.pathname,
    query: url.searchParams,
    headers: req.headers,
    body: raw === '' ? undefined : parseJsonOr(raw, raw),
  };
  state.requests.push(received);
  const before = takeFault(state, received, false);
  const respond = () => {
    const now = state.now();
    const early = before?.kind === 'slow' ? undefined : before;
    const after = early ? undefined : takeFault(state, received, true);
    let answer = early ? faultAnswer(early, now) : route(state, api, received, now);
    if (after && after.kind !== 'slow') answer = faultAnswer(after, now);
    received.status = answer.status;
    sendJson(res, withGitHubHeaders(state, answer, now));
  };
  if (before?.kind !== 'slow') return respond();
  // Carried out only after the delay, as a slow GitHub would (a client that gave up is gone).
  const timer = setTimeout(() => {
    state.timers.delete(timer);
    respond();
  }, before.delayMs);
  state.timers.add(timer);
}

function route(
  state: GitHubDoubleState,
  api: string,
  request: RecordedRequest,
  now: Date,
): HttpAnswer {
  const tokenPath = TOKEN_PATH.exec(request.path);
  if (tokenPath && request.method === 'POST')
    return createInstallationToken(state, Number(tokenPath[1]), request.headers, now);
  const repoPath = REPO_PATH.exec(request.path);
  if (!repoPath) return notFound();
  const check = checkToken(state, bearerOf(request.headers), now);
  if (!check.ok) return { status: check.status, body: errorBody(check.status, check.message) };
  const repo = state.repositories.get(
    repositoryKey(decodeURIComponent(repoPath[1] ?? ''), decodeURIComponent(repoPath[2] ?? '')),
  );
  if (repo === undefined) return notFound();
  const call: RepoCall = { state, repo, api, body: request.body, query: request.query, now };
  const rest = repoPath[3] ?? '';
  const key = `${request.method} ${rest}`;
  if (key === 'GET ') return getRepository(call);
  if (key === 'POST /git/refs') return createRef(call);
  if (key === 'GET /pulls') return listPulls(call);
  if (key === 'POST /pulls') return createPull(call);
  const comments = COMMENTS_PATH.exec(rest);
  if (comments && request.method === 'POST') return createComment(call, Number(comments[1]));
  return notFound();
}

function notFound(): HttpAnswer {
  return { status: 404, body: errorBody(404, 'Not Found') };
}

/** Every answer counts against the rate limit and says so, as GitHub's do. */
function withGitHubHeaders(state: GitHubDoubleState, answer: HttpAnswer, now: Date): HttpAnswer {
  const limit = state.rateLimit;
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (limit.resetEpochSeconds <= nowSeconds) {
    limit.used = 0;
    limit.resetEpochSeconds = nowSeconds + 3600;
  }
  limit.used = Math.min(limit.limit, limit.used + 1);
  return {
    ...answer,
    headers: {
      'x-github-request-id': `DOUBLE:${state.requests.length}`,
      'x-ratelimit-limit': String(limit.limit),
      'x-ratelimit-remaining': String(limit.limit - limit.used),
      'x-ratelimit-reset': String(limit.resetEpochSeconds),
      'x-ratelimit-used': String(limit.used),
      'x-ratelimit-resource': 'core',
      ...answer.headers,
    },
  };
}
