/**
 * One signed delivery made two ways: posted over HTTP to the local server's hook route (the
 * socket, the server's reading and event, the router, the answer), or handed to the same
 * router in-process as the equivalent API Gateway event, built before its clock starts.
 * Each returns the answer and its own duration in ms; the sender's signing is untimed on
 * both (it is Sentry's work, not the intake's).
 */
import type { ApiEntry } from '../../lambdas/api/router.js';
import { HookAnswerSchema } from '../../lambdas/core/schemas/hook-answer.js';
import type { HookEventAnswer } from '../../lambdas/core/schemas/hook-answer.js';
import { callEntry, type Answer } from '../api/api-calls.js';
import type { SignedDelivery } from './sentry-sender.js';

export const SENTRY_HOOK_PATH = '/hooks/sentry';

/** Posted with fetch over a kept-alive loopback socket, timed until the answer is read. */
export async function postDelivery(serverUrl: string, delivery: SignedDelivery): Promise<Answer> {
  const start = performance.now();
  const response = await fetch(new URL(SENTRY_HOOK_PATH, serverUrl), {
    method: 'POST',
    headers: delivery.headers,
    body: delivery.body,
  });
  const body = await response.text();
  return { status: response.status, body, ms: performance.now() - start };
}

/** The event the server would build for `delivery`, handed to `entry`. */
export function deliverInProcess(entry: ApiEntry, delivery: SignedDelivery): Promise<Answer> {
  return callEntry(entry, {
    method: 'POST',
    url: new URL(`http://127.0.0.1${SENTRY_HOOK_PATH}`),
    headers: delivery.headers,
    body: Buffer.from(delivery.body),
    sourceIp: '127.0.0.1',
  });
}

/**
 * The answer's duration, once it is `202` with its one event's group in the expected
 * outcome: a delivery refused, held or taken for a replay measured another path.
 */
export function deliveryTime(answer: Answer, outcome: HookEventAnswer['outcome']): number {
  const parsed =
    answer.status === 202 ? HookAnswerSchema.safeParse(JSON.parse(answer.body)) : undefined;
  const events = parsed?.success && parsed.data.outcome === 'recorded' ? parsed.data.events : [];
  if (events.length !== 1 || events[0]?.outcome !== outcome)
    throw new Error(
      `a Sentry delivery should be 202 with one "${outcome}" event, got ${answer.status}: ${answer.body.slice(0, 300)}`,
    );
  return answer.ms;
}
