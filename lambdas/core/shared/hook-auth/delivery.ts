/**
 * The headers each sender puts on a delivery, as its documentation shows them, so that a
 * delivery made by hand (`ralph hooks send`) is the one the verifiers check.
 */
import { ERROR_SOURCES, type ErrorSource } from '../../schemas/error-event.js';
import type { NewRelicCredential } from '../../schemas/hook-secrets.js';
import type { HookDigest } from './result.js';
import { SENTRY_HEADERS, sentrySignature } from './sentry.js';

/** The senders the hooks take: the sources of the error model (one list for both). */
export const HOOK_SOURCES = ERROR_SOURCES;
export type HookSource = ErrorSource;

/** The values of `Sentry-Hook-Resource`. */
export const SENTRY_RESOURCES = [
  'installation',
  'event_alert',
  'issue',
  'metric_alert',
  'error',
  'comment',
] as const;
export type SentryResource = (typeof SENTRY_RESOURCES)[number];

/** Which key of a Sentry payload's `data` each resource carries. */
const SENTRY_DATA_KEYS: Readonly<Record<string, SentryResource>> = {
  issue: 'issue',
  error: 'error',
  event: 'event_alert',
  metric_alert: 'metric_alert',
  installation: 'installation',
  comment: 'comment',
};

/**
 * The resource a Sentry payload is about, read from its `data` (one key per resource), or
 * `undefined` when the payload does not say.
 *
 * @example
 * sentryResourceOf({ action: 'created', data: { issue: { id: '1' } } }); // 'issue'
 */
export function sentryResourceOf(payload: unknown): SentryResource | undefined {
  const data = (payload as { data?: unknown } | null)?.data;
  if (typeof data !== 'object' || data === null) return undefined;
  const found = Object.keys(data).flatMap((key) => SENTRY_DATA_KEYS[key] ?? []);
  return found.length === 1 ? found[0] : undefined;
}

export interface SentryDelivery {
  readonly body: Uint8Array;
  readonly clientSecret: string;
  readonly resource: SentryResource;
  readonly now: Date;
  readonly requestId: string;
  readonly digest: HookDigest;
}

/** Sentry's headers: its JSON type, a request id, the resource, the time and the signature. */
export function sentryDeliveryHeaders(delivery: SentryDelivery): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    [SENTRY_HEADERS.requestId]: delivery.requestId,
    [SENTRY_HEADERS.resource]: delivery.resource,
    [SENTRY_HEADERS.timestamp]: String(Math.floor(delivery.now.getTime() / 1000)),
    [SENTRY_HEADERS.signature]: sentrySignature(
      delivery.digest,
      delivery.clientSecret,
      delivery.body,
    ),
  };
}

/** New Relic's webhook: JSON, its token as a bearer token or in the configured header. */
export function newRelicDeliveryHeaders(credential: NewRelicCredential): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    ...(credential.kind === 'bearer'
      ? { Authorization: `Bearer ${credential.token}` }
      : { [credential.header]: credential.value }),
  };
}

/**
 * CloudWatch alarms arrive two ways. SNS posts its envelope (`Type: Notification`, the alarm
 * JSON inside `Message`) as `text/plain` with its `x-amz-sns-*` headers; an EventBridge API
 * destination posts the `CloudWatch Alarm State Change` event as JSON.
 */
export function cloudWatchDeliveryHeaders(payload: unknown): Record<string, string> {
  const envelope = payload as { Type?: unknown; MessageId?: unknown; TopicArn?: unknown } | null;
  if (envelope?.Type !== 'Notification') return { 'Content-Type': 'application/json' };
  return {
    'Content-Type': 'text/plain; charset=UTF-8',
    'x-amz-sns-message-type': 'Notification',
    ...(typeof envelope.MessageId === 'string'
      ? { 'x-amz-sns-message-id': envelope.MessageId }
      : {}),
    ...(typeof envelope.TopicArn === 'string' ? { 'x-amz-sns-topic-arn': envelope.TopicArn } : {}),
  };
}
