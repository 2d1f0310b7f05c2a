/**
 * POST /hooks/sentry and /hooks/newrelic: the sender checked by its own scheme over the raw
 * body (hook-auth.ts), then the delivery recorded (core/intake). POST /hooks/cloudwatch: an
 * alarm delivery from a caller the API's authorizer let in. A bad signature is `401`
 * and nothing is written; secrets or the store out of reach are `503` (the sender retries).
 */
import { cloudWatchDeliveryId } from '../../core/incidents/cloudwatch-delivery-id.js';
import { recordDelivery } from '../../core/intake/record-delivery.js';
import { parseJsonText } from '../../core/shared/validation.js';
import type { IntakeDeps } from '../../core/intake/deps.js';
import type { HookDigest } from '../../core/shared/hook-auth/result.js';
import type { HookSecrets } from '../../ports.js';
import { authenticateHook, type SignedHookSource } from '../hook-auth.js';
import { json, rawBodyOf } from '../http.js';
import { HttpProblem } from '../problem.js';
import type { ApiHandler, ApiHandlers } from '../router.js';

export interface HookRouteDeps extends IntakeDeps {
  secrets: HookSecrets;
  digest: HookDigest;
}

export function hookRoutes(deps: HookRouteDeps): ApiHandlers {
  const receive =
    (source: SignedHookSource): ApiHandler =>
    async ({ event, headers }) => {
      const body = rawBodyOf(event);
      const auth = await authenticateHook(source, headers, body, deps);
      if (!auth.ok) {
        if (auth.status === 401) throw new HttpProblem(401, auth.reason, 'HOOK_REFUSED');
        throw Object.assign(
          new HttpProblem(503, auth.reason, 'HOOK_SECRET_UNAVAILABLE', { 'retry-after': '5' }),
          { cause: auth.cause },
        );
      }
      const { status, answer } = await recordDelivery(deps, {
        source,
        headers,
        body: Buffer.from(body).toString('utf8'),
        replayKey: auth.replayKey,
      });
      return json(status, answer);
    };
  /** Signed by the caller (the API's authorizer, or ralph serve's SigV4 check) before it gets here. */
  const cloudWatch: ApiHandler = async ({ event, headers }) => {
    const body = Buffer.from(rawBodyOf(event)).toString('utf8');
    const id = cloudWatchDeliveryId(parseJsonText(body, 'request body'));
    const { status, answer } = await recordDelivery(deps, {
      source: 'cloudwatch',
      headers,
      body,
      replayKey: `cloudwatch:${id ?? deps.digest.sha256Hex(Buffer.from(body))}`,
    });
    return json(status, answer);
  };
  return {
    sentryHook: receive('sentry'),
    newRelicHook: receive('newrelic'),
    cloudWatchHook: cloudWatch,
  };
}
