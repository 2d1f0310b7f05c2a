import { describe, expect, it } from 'vitest';
import { nodeHookDigest } from '../../lambdas/adapters/hook-digest.js';
import {
  cloudWatchDeliveryHeaders,
  newRelicDeliveryHeaders,
  sentryDeliveryHeaders,
  sentryResourceOf,
} from '../../lambdas/core/shared/hook-auth/delivery.js';
import { verifyNewRelicDelivery } from '../../lambdas/core/shared/hook-auth/newrelic.js';
import { verifySentryDelivery } from '../../lambdas/core/shared/hook-auth/sentry.js';

const body = Buffer.from('{"action":"triggered","data":{"event":{"title":"boom"}}}');
const now = new Date('2026-11-27T12:00:00.750Z');

describe('sentryDeliveryHeaders', () => {
  it('makes the headers the verifier accepts, the timestamp in whole seconds', () => {
    // Act
    const headers = sentryDeliveryHeaders({
      body,
      clientSecret: 'secret',
      resource: 'event_alert',
      now,
      requestId: 'r-1',
      digest: nodeHookDigest,
    });
    // Assess
    expect(headers['Sentry-Hook-Timestamp']).toBe(String(Math.floor(now.getTime() / 1000)));
    expect(headers['Sentry-Hook-Resource']).toBe('event_alert');
    const check = { now, digest: nodeHookDigest };
    expect(verifySentryDelivery(headers, body, { ...check, clientSecret: 'secret' }).ok).toBe(true);
    expect(verifySentryDelivery(headers, body, { ...check, clientSecret: 'other' }).ok).toBe(false);
  });
});

describe('sentryResourceOf', () => {
  it.each([
    [{ data: { issue: {} } }, 'issue'],
    [{ data: { event: {} } }, 'event_alert'],
    [{ data: { error: {} } }, 'error'],
    [{ data: { metric_alert: {}, description_text: 'x' } }, 'metric_alert'],
    [{ data: { installation: {} } }, 'installation'],
    [{ data: {} }, undefined],
    [{ data: { issue: {}, comment: {} } }, undefined],
    [[], undefined],
    [null, undefined],
  ])('reads %j as %s', (payload, resource) => {
    expect(sentryResourceOf(payload)).toBe(resource);
  });
});

describe('newRelicDeliveryHeaders', () => {
  it('carries the token the verifier expects, either way', () => {
    const bearer = { kind: 'bearer', token: 't0k3n' } as const;
    const header = { kind: 'header', header: 'X-Token', value: 't0k3n' } as const;
    for (const credential of [bearer, header])
      expect(
        verifyNewRelicDelivery(
          newRelicDeliveryHeaders(credential),
          body,
          credential,
          nodeHookDigest,
        ).ok,
      ).toBe(true);
  });
});

describe('cloudWatchDeliveryHeaders', () => {
  it('sends an EventBridge event as JSON, without SNS headers', () => {
    const event = { 'detail-type': 'CloudWatch Alarm State Change', source: 'aws.cloudwatch' };
    expect(cloudWatchDeliveryHeaders(event)).toEqual({ 'Content-Type': 'application/json' });
  });
});
