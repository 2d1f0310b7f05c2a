/**
 * Sentry integration-platform webhooks. Sentry signs the raw request body, and only the
 * body, with the integration's client secret: `Sentry-Hook-Signature` is the hex
 * HMAC-SHA256 of it. `Sentry-Hook-Timestamp` (seconds since the epoch) and `Request-ID`
 * are not signed, so neither can identify a delivery against a replayer; the signature
 * can (it changes with every byte of the body).
 */
import { headerProblem, headerValue, type HookHeaders } from './headers.js';
import { refused, type HookAuthResult, type HookDigest } from './result.js';

export const SENTRY_HEADERS = {
  signature: 'Sentry-Hook-Signature',
  timestamp: 'Sentry-Hook-Timestamp',
  resource: 'Sentry-Hook-Resource',
  requestId: 'Request-ID',
} as const;

/** How old a delivery may be, and how far ahead of our clock the sender's may run. */
export interface SentryTimeWindow {
  /** @default 300 */
  readonly maxAgeSeconds: number;
  /** @default 60 */
  readonly maxSkewSeconds: number;
}

export const DEFAULT_SENTRY_WINDOW: SentryTimeWindow = { maxAgeSeconds: 300, maxSkewSeconds: 60 };

export interface SentryCheck {
  readonly clientSecret: string;
  readonly now: Date;
  readonly digest: HookDigest;
  readonly window?: SentryTimeWindow;
}

/**
 * The signature Sentry sends for `body`: the one function the sender (`ralph hooks send`)
 * and the verifier both use.
 *
 * @example
 * sentrySignature(nodeHookDigest, 'client-secret', Buffer.from('{"action":"created"}'));
 */
export function sentrySignature(
  digest: HookDigest,
  clientSecret: string,
  body: Uint8Array,
): string {
  return digest.hmacSha256Hex(clientSecret, body);
}

/**
 * Whether a delivery comes from Sentry, recently: both headers present, the timestamp
 * inside the window, the signature that of these exact body bytes.
 *
 * @example
 * const result = verifySentryDelivery(request.headers, rawBody, { clientSecret, now: clock.now(), digest });
 * if (!result.ok) return { statusCode: result.status, body: result.reason };
 */
export function verifySentryDelivery(
  headers: HookHeaders,
  body: Uint8Array,
  check: SentryCheck,
): HookAuthResult {
  const signature = headerValue(headers, SENTRY_HEADERS.signature);
  if (!signature.found) return refused(headerProblem(SENTRY_HEADERS.signature, signature.why));
  const timestamp = headerValue(headers, SENTRY_HEADERS.timestamp);
  if (!timestamp.found) return refused(headerProblem(SENTRY_HEADERS.timestamp, timestamp.why));
  const late = timeProblem(timestamp.value, check.now, check.window ?? DEFAULT_SENTRY_WINDOW);
  if (late !== undefined) return refused(late);
  const expected = sentrySignature(check.digest, check.clientSecret, body);
  if (!check.digest.equalInConstantTime(signature.value, expected))
    return refused(
      `${SENTRY_HEADERS.signature} does not match the body (signed with another client secret, or the body was changed on the way)`,
    );
  return { ok: true, replayKey: `sentry:${expected}` };
}

function timeProblem(value: string, now: Date, window: SentryTimeWindow): string | undefined {
  if (!/^\d+(\.\d+)?$/.test(value))
    return `${SENTRY_HEADERS.timestamp} is not seconds since the epoch`;
  const ageSeconds = now.getTime() / 1000 - Number(value);
  if (ageSeconds > window.maxAgeSeconds)
    return `${SENTRY_HEADERS.timestamp} is ${Math.round(ageSeconds)} s old (more than ${window.maxAgeSeconds} s): a stale or replayed delivery`;
  if (-ageSeconds > window.maxSkewSeconds)
    return `${SENTRY_HEADERS.timestamp} is ${Math.round(-ageSeconds)} s in the future (more than ${window.maxSkewSeconds} s ahead of our clock)`;
  return undefined;
}
