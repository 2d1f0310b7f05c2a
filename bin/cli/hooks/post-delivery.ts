/**
 * Posts one webhook delivery as its sender would, with a timeout per attempt and a bounded
 * retry with backoff on what a sender retries: a connection failure, a timeout or a 5xx.
 * A 4xx is the receiver's answer about this delivery and is never repeated.
 */
import { fullJitterMs, sleep } from '../../../lambdas/adapters/backoff.js';
import { CliError } from '../errors.js';
import { EXIT } from '../exit-codes.js';

export interface Delivery {
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
}

export interface DeliveryAnswer {
  readonly status: number;
  readonly body: string;
  /** Attempts made, the first included. */
  readonly attempts: number;
}

export interface PostPolicy {
  /** Per attempt. @default 10000 */
  readonly timeoutMs?: number;
  /** Attempts in all, the first included. @default 4 */
  readonly attempts?: number;
  /** Attempt n waits up to base × 2^n (full jitter), at most 5 s. @default 250 */
  readonly backoffMs?: number;
}

const MAX_BACKOFF_MS = 5_000;

/**
 * The receiver's last answer (a 5xx once the attempts are spent); a receiver that never
 * answered is a CliError saying why.
 *
 * @example
 * const answer = await postDelivery({ url, headers, body }, { timeoutMs: 5_000 });
 */
export async function postDelivery(
  delivery: Delivery,
  policy: PostPolicy = {},
): Promise<DeliveryAnswer> {
  const timeoutMs = policy.timeoutMs ?? 10_000;
  const attempts = policy.attempts ?? 4;
  for (let attempt = 1; ; attempt += 1) {
    const last = attempt >= attempts;
    try {
      const response = await fetch(delivery.url, {
        method: 'POST',
        headers: delivery.headers,
        body: delivery.body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      const answer = { status: response.status, body: await response.text(), attempts: attempt };
      if (response.status < 500 || last) return answer;
    } catch (error) {
      if (last) throw unreachable(delivery.url, attempt, timeoutMs, error);
    }
    await sleep(fullJitterMs(attempt, policy.backoffMs ?? 250, MAX_BACKOFF_MS));
  }
}

function unreachable(url: URL, attempts: number, timeoutMs: number, error: unknown): CliError {
  const cause =
    (error as Error).name === 'TimeoutError'
      ? `no answer within ${timeoutMs} ms`
      : ((error as { cause?: Error }).cause?.message ?? (error as Error).message);
  return new CliError(
    `POST ${url.href} failed after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${cause}`,
    EXIT.internal,
  );
}
