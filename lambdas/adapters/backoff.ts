/** The pause before a retry the adapters make themselves (the SDK's own retries aside). */

/**
 * Capped exponential backoff with full jitter: a random pause up to
 * `min(capMs, baseMs * 2^retry)`, so that clients retrying together spread out.
 *
 * @example
 * await sleep(fullJitterMs(attempt, 50, 2_000));
 */
export function fullJitterMs(retry: number, baseMs: number, capMs: number): number {
  return Math.round(Math.random() * Math.min(capMs, baseMs * 2 ** retry));
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
