/**
 * Where a delivery's time goes, measured on the in-process path: its parts without a store
 * (the secret read from hooks.json, the signature check, the normalising), each timed
 * alone on fresh signed deliveries; and deliveries through a router over the same ports
 * seen through a PortTimer, so the store calls (and the rest: router, zod, answer) add up
 * to what a delivery costs.
 */
import { performance } from 'node:perf_hooks';
import { apiRouter } from '../../lambdas/api/router.js';
import { hookRoutes, type HookRouteDeps } from '../../lambdas/api/routes/hooks.js';
import { normalise } from '../../lambdas/core/incidents/normalise.js';
import { verifySentryDelivery } from '../../lambdas/core/shared/hook-auth/sentry.js';
import { stderrLogger } from '../../local/local-api.js';
import { inFlight } from './burst.js';
import type { Workload } from './deliveries.js';
import { deliverInProcess, deliveryTime } from './hook-calls.js';
import { EXPECTED_OUTCOME } from './measure-sequential.js';
import { PortTimer, type CallTotals } from './port-timer.js';
import { SentrySender } from './sentry-sender.js';

/** Each part's durations in ms, one per delivery. */
export interface StorelessParts {
  readSecret: number[];
  verify: number[];
  normalise: number[];
}

export interface PortProfile {
  deliveries: number;
  /** Each delivery's whole in-process duration, in ms. */
  totalMs: number[];
  /** By `port.method`, over all the deliveries. */
  calls: Record<string, CallTotals>;
}

/** The parts of a delivery that touch no store, each timed alone, `times` deliveries. */
export async function storelessParts(
  deps: HookRouteDeps,
  clientSecret: string,
  times: number,
): Promise<StorelessParts> {
  // A sender of its own: these deliveries are never posted, so the workloads' numbering stays.
  const sender = new SentrySender(clientSecret);
  const parts: StorelessParts = { readSecret: [], verify: [], normalise: [] };
  for (let i = 0; i < times; i += 1) {
    const { body, headers } = sender.next('new-groups');
    let start = performance.now();
    const secret = await deps.secrets.sentryClientSecret();
    parts.readSecret.push(performance.now() - start);
    start = performance.now();
    const verdict = verifySentryDelivery(headers, Buffer.from(body), {
      clientSecret: secret ?? '',
      now: deps.clock.now(),
      digest: deps.digest,
    });
    parts.verify.push(performance.now() - start);
    start = performance.now();
    const normalised = normalise('sentry', headers, body);
    parts.normalise.push(performance.now() - start);
    if (!verdict.ok || normalised.kind !== 'events')
      throw new Error(`a bench delivery was refused or ignored: ${JSON.stringify(verdict)}`);
  }
  return parts;
}

/**
 * `times` deliveries of `workload`, in-process, `width` in flight, through a router over
 * `deps` with its store, routes, secrets and scheduler timed; `sender` numbers them after
 * the measured ones.
 */
export async function portProfile(
  deps: HookRouteDeps,
  sender: SentrySender,
  workload: Workload,
  counts: { times: number; width: number },
): Promise<PortProfile> {
  const timer = new PortTimer();
  const entry = apiRouter(
    hookRoutes({
      ...deps,
      incidents: timer.timed('incidents', deps.incidents),
      routes: timer.timed('routes', deps.routes),
      secrets: timer.timed('secrets', deps.secrets),
      scheduler: timer.timed('scheduler', deps.scheduler),
    }),
    stderrLogger,
  );
  const totalMs = await inFlight(counts.times, counts.width, async () =>
    deliveryTime(await deliverInProcess(entry, sender.next(workload)), EXPECTED_OUTCOME[workload]),
  );
  return { deliveries: counts.times, totalMs, calls: Object.fromEntries(timer.totals) };
}
