/**
 * The sender check in front of the hook routes: the secrets of the source, then its own
 * scheme (core/shared/hook-auth). Fails closed: a source not set up is refused, and secrets
 * that cannot be read answer `503`, which senders retry, never "let it through".
 */
import type { HookHeaders } from '../core/shared/hook-auth/headers.js';
import { verifyNewRelicDelivery } from '../core/shared/hook-auth/newrelic.js';
import type { HookAuthResult, HookDigest } from '../core/shared/hook-auth/result.js';
import { verifySentryDelivery } from '../core/shared/hook-auth/sentry.js';
import type { Clock, HookSecrets } from '../ports.js';

/** The sources that authenticate over HTTP (CloudWatch arrives through AWS itself). */
export type SignedHookSource = 'sentry' | 'newrelic';

export type HookAuthAnswer =
  | HookAuthResult
  | {
      readonly ok: false;
      readonly status: 503;
      readonly reason: string;
      /** Why the secret could not be read: for the caller's logs, never for the sender. */
      readonly cause: unknown;
    };

export interface HookAuthDeps {
  readonly secrets: HookSecrets;
  readonly clock: Clock;
  readonly digest: HookDigest;
}

/**
 * @example
 * const answer = await authenticateHook('sentry', event.headers, rawBody, { secrets, clock: systemClock, digest: nodeHookDigest });
 * if (!answer.ok) return problem(answer.status, answer.reason);
 */
export async function authenticateHook(
  source: SignedHookSource,
  headers: HookHeaders,
  body: Uint8Array,
  deps: HookAuthDeps,
): Promise<HookAuthAnswer> {
  if (source === 'sentry') {
    const clientSecret = await readSecret(source, () => deps.secrets.sentryClientSecret());
    if (typeof clientSecret !== 'string') return clientSecret;
    return verifySentryDelivery(headers, body, {
      clientSecret,
      now: deps.clock.now(),
      digest: deps.digest,
    });
  }
  const credential = await readSecret(source, () => deps.secrets.newRelicCredential());
  if ('status' in credential) return credential;
  return verifyNewRelicDelivery(headers, body, credential, deps.digest);
}

/** The secret, or the answer to give when there is none (401) or it cannot be read (503). */
async function readSecret<T extends object | string>(
  source: SignedHookSource,
  read: () => Promise<T | undefined>,
): Promise<T | Exclude<HookAuthAnswer, { ok: true }>> {
  let secret: T | undefined;
  try {
    secret = await read();
  } catch (cause) {
    return {
      ok: false,
      status: 503,
      reason: `the ${source} hook secret cannot be read now; retry later`,
      cause,
    };
  }
  return (
    secret ?? { ok: false, status: 401, reason: `${source} hooks are not set up on this stack` }
  );
}
