import { describe, expect, it } from 'vitest';
import { nodeHookDigest } from '../../lambdas/adapters/hook-digest.js';
import { authenticateHook } from '../../lambdas/api/hook-auth.js';
import { sentryDeliveryHeaders } from '../../lambdas/core/shared/hook-auth/delivery.js';
import type { HookSecrets } from '../../lambdas/ports.js';

const now = new Date('2026-11-27T12:00:00Z');
const clock = { now: () => now };
const body = Buffer.from('{"action":"created","data":{"issue":{"id":"1"}}}');

/** An in-memory HookSecrets port. */
function secretsOf(values: { sentry?: string; token?: string }): HookSecrets {
  return {
    sentryClientSecret: async () => values.sentry,
    newRelicCredential: async () =>
      values.token === undefined ? undefined : { kind: 'bearer', token: values.token },
  };
}

const unreadable: HookSecrets = {
  sentryClientSecret: () => Promise.reject(new Error('connect ETIMEDOUT')),
  newRelicCredential: () => Promise.reject(new Error('connect ETIMEDOUT')),
};

const signed = sentryDeliveryHeaders({
  body,
  clientSecret: 'secret',
  resource: 'issue',
  now,
  requestId: 'r-1',
  digest: nodeHookDigest,
});

describe('authenticateHook', () => {
  it("checks a delivery with its source's secret", async () => {
    // Prepare
    const deps = {
      secrets: secretsOf({ sentry: 'secret', token: 't' }),
      clock,
      digest: nodeHookDigest,
    };
    // Act
    const sentry = await authenticateHook('sentry', signed, body, deps);
    const newRelic = await authenticateHook('newrelic', { authorization: 'Bearer t' }, body, deps);
    const wrong = await authenticateHook('newrelic', { authorization: 'Bearer x' }, body, deps);
    // Assess
    expect(sentry.ok).toBe(true);
    expect(newRelic.ok).toBe(true);
    expect(wrong).toMatchObject({ ok: false, status: 401 });
  });

  it('refuses every delivery of a source that is not set up', async () => {
    const deps = { secrets: secretsOf({}), clock, digest: nodeHookDigest };
    expect(await authenticateHook('sentry', signed, body, deps)).toEqual({
      ok: false,
      status: 401,
      reason: 'sentry hooks are not set up on this stack',
    });
  });

  it('answers 503 when the secrets cannot be read, the cause kept for the logs only', async () => {
    const deps = { secrets: unreadable, clock, digest: nodeHookDigest };
    for (const source of ['sentry', 'newrelic'] as const) {
      const answer = await authenticateHook(source, signed, body, deps);
      expect(answer).toMatchObject({
        ok: false,
        status: 503,
        cause: new Error('connect ETIMEDOUT'),
      });
      expect(answer.ok || answer.reason).not.toContain('ETIMEDOUT');
    }
  });
});
