/**
 * The answers of queued faults, as GitHub gives them: a 502 with its error body, a
 * secondary rate limit (403 with `retry-after`), and an exhausted primary rate limit
 * (403 with `x-ratelimit-remaining: 0` and `x-ratelimit-reset`).
 */
import type { HttpAnswer } from '../model-server/http.js';
import type { GitHubDoubleState, PendingFault } from './double-state.js';
import { errorBody } from './shapes.js';

/** Takes the first queued fault that applies to a request of `method` on `path`, if any. */
export function takeFault(
  state: GitHubDoubleState,
  request: { method: string; path: string },
  afterHandling: boolean,
): PendingFault | undefined {
  const index = state.faults.findIndex(
    (fault) =>
      fault.afterHandling === afterHandling &&
      (fault.method === undefined || fault.method === request.method) &&
      (fault.pathIncludes === undefined || request.path.includes(fault.pathIncludes)),
  );
  return index === -1 ? undefined : state.faults.splice(index, 1)[0];
}

/** The answer `fault` gives at `now`. */
export function faultAnswer(fault: Exclude<PendingFault, { kind: 'slow' }>, now: Date): HttpAnswer {
  if (fault.kind === 'server-error') return { status: 502, body: errorBody(502, 'Server Error') };
  if (fault.kind === 'secondary-rate-limit')
    return {
      status: 403,
      body: errorBody(
        403,
        'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
        { docs: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api' },
      ),
      headers: { 'retry-after': String(fault.retryAfterSeconds ?? 60) },
    };
  const reset = Math.ceil(now.getTime() / 1000) + (fault.resetInSeconds ?? 3600);
  return {
    status: 403,
    body: errorBody(403, 'API rate limit exceeded for installation.', {
      docs: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
    }),
    headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) },
  };
}
