/**
 * How long GitHub asks a client to wait, from an answer's status, headers and message
 * (GitHub's "Rate limits for the REST API": `retry-after` first; else
 * `x-ratelimit-remaining: 0` until `x-ratelimit-reset`; else, for a secondary rate limit
 * that names no time, at least a minute). Undefined when the answer is no rate limit: a
 * 403 that is a permission refusal is never waited out.
 */

/**
 * The wait in milliseconds, or undefined when the answer is not a rate limit.
 *
 * @example
 * rateLimitWaitMs(429, headers, 'secondary rate limit', new Date(), 60_000); // e.g. 3000
 */
export function rateLimitWaitMs(
  status: number,
  headers: Headers,
  message: string,
  now: Date,
  secondaryDefaultMs: number,
): number | undefined {
  if (status !== 403 && status !== 429) return undefined;
  const retryAfter = headers.get('retry-after');
  if (retryAfter !== null) {
    const seconds = Number.parseFloat(retryAfter);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max(0, date - now.getTime());
  }
  const reset = Number.parseInt(headers.get('x-ratelimit-reset') ?? '', 10);
  if (headers.get('x-ratelimit-remaining') === '0' && Number.isFinite(reset))
    return Math.max(0, reset * 1000 - now.getTime());
  if (status === 429 || /rate limit/i.test(message)) return secondaryDefaultMs;
  return undefined;
}
