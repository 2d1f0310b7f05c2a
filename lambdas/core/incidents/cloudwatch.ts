/**
 * CloudWatch alarm state changes → error events. Only `ALARM` is an error; `OK` and
 * `INSUFFICIENT_DATA` are answered as ignored. The fingerprint is the alarm's ARN (its name
 * when an old SNS notification has no ARN): each time one alarm fires it is the same problem.
 */
import { InvalidInputError } from '../errors.js';
import { formatZodIssues, parseJsonText, parseOrThrow } from '../shared/validation.js';
import { errorEvents, ignored, type ErrorEvent, type Normalised } from '../schemas/error-event.js';
import { definedEntries, isoInstant } from './fields.js';
import {
  ALARM_STATE_CHANGE,
  AlarmEventBridgeEventSchema,
  AlarmSnsMessageSchema,
  SnsEnvelopeSchema,
  SnsLambdaEventSchema,
  type AlarmSnsMessage,
  type SnsEnvelope,
} from './cloudwatch-payloads.js';

const WHAT = 'CloudWatch alarm delivery';

/**
 * One CloudWatch alarm delivery (EventBridge event, SNS HTTP notification or SNS Lambda
 * event) as error events, or why it is none.
 *
 * @example
 * normaliseCloudWatch(rawBody);
 */
export function normaliseCloudWatch(body: string): Normalised {
  return normaliseCloudWatchEvent(parseJsonText(body, WHAT));
}

/**
 * The same for a delivery already parsed: the event an EventBridge rule or an SNS
 * subscription hands a Lambda.
 *
 * @example
 * export const handler = (event: unknown) => normaliseCloudWatchEvent(event);
 */
export function normaliseCloudWatchEvent(value: unknown): Normalised {
  if (typeof value === 'object' && value !== null) {
    if ('detail-type' in value) return fromEventBridge(value);
    if ('Type' in value) return fromSns(parseOrThrow(SnsEnvelopeSchema, value, WHAT), '');
    if ('Records' in value) return fromSnsRecords(value);
  }
  throw new InvalidInputError(WHAT, [
    '(root): not a CloudWatch alarm delivery: expected an EventBridge event ("detail-type"), an SNS notification ("Type", "Message") or an SNS Lambda event ("Records")',
  ]);
}

function fromEventBridge(value: object): Normalised {
  const event = parseOrThrow(AlarmEventBridgeEventSchema, value, WHAT);
  const { alarmName, state } = event.detail;
  if (event['detail-type'] !== ALARM_STATE_CHANGE)
    return ignored('cloudwatch', `"${event['detail-type']}" is not an alarm state change`);
  if (state.value !== 'ALARM')
    return ignored(
      'cloudwatch',
      `alarm ${alarmName} went to ${state.value}: nothing is failing now`,
    );
  const arn = event.resources?.find((resource) => resource.includes(':alarm:'));
  const metric = event.detail.configuration?.metrics?.find((m) => m.metricStat)?.metricStat?.metric;
  const at = isoInstant(state.timestamp ?? event.time);
  return errorEvents([
    alarmEvent({
      delivery: 'eventbridge',
      name: alarmName,
      arn,
      reason: state.reason ?? undefined,
      description: event.detail.configuration?.description ?? undefined,
      at,
      culprit: metricText(
        metric?.namespace,
        metric?.name,
        Object.entries(metric?.dimensions ?? {}),
      ),
      tags: definedEntries([
        ['account', event.account],
        ['region', event.region],
        ['previousState', event.detail.previousState?.value],
      ]),
    }),
  ]);
}

/** A Lambda subscription's event: one notification per record. */
function fromSnsRecords(value: object): Normalised {
  const { Records } = parseOrThrow(SnsLambdaEventSchema, value, WHAT);
  const results = Records.map((record, index) => fromSns(record.Sns, `Records[${index}].Sns.`));
  const events = results.flatMap((result) => (result.kind === 'events' ? result.events : []));
  if (events.length > 0) return { kind: 'events', events };
  return ignored(
    'cloudwatch',
    results.map((result) => (result.kind === 'ignored' ? result.reason : '')).join('; '),
  );
}

function fromSns(envelope: SnsEnvelope, at: string): Normalised {
  if (envelope.Type !== 'Notification')
    return ignored(
      'cloudwatch',
      `an SNS ${envelope.Type} is not an alarm (a subscription is confirmed by visiting its SubscribeURL)`,
    );
  const alarm = alarmInMessage(envelope.Message, `${at}Message`);
  if (alarm.NewStateValue !== 'ALARM')
    return ignored(
      'cloudwatch',
      `alarm ${alarm.AlarmName} went to ${alarm.NewStateValue}: nothing is failing now`,
    );
  const trigger = alarm.Trigger;
  return errorEvents([
    alarmEvent({
      delivery: 'sns',
      name: alarm.AlarmName,
      arn: alarm.AlarmArn ?? undefined,
      reason: alarm.NewStateReason ?? undefined,
      description: alarm.AlarmDescription ?? undefined,
      at: isoInstant(alarm.StateChangeTime ?? envelope.Timestamp),
      culprit: metricText(
        trigger?.Namespace,
        trigger?.MetricName,
        (trigger?.Dimensions ?? []).map((d) => [d.name, d.value] as const),
      ),
      tags: definedEntries([
        ['account', alarm.AWSAccountId],
        ['region', alarm.Region],
        ['previousState', alarm.OldStateValue],
        ['topic', envelope.TopicArn],
      ]),
    }),
  ]);
}

/** The alarm JSON inside an SNS `Message`, its problems named under the `path` it sits at. */
function alarmInMessage(message: string, path: string): AlarmSnsMessage {
  const under = (lines: readonly string[]) =>
    lines.map((line) => (line.startsWith('(root)') ? path + line.slice(6) : `${path}.${line}`));
  let value: unknown;
  try {
    value = parseJsonText(message, WHAT);
  } catch (error) {
    throw new InvalidInputError(WHAT, under((error as InvalidInputError).issues));
  }
  const result = AlarmSnsMessageSchema.safeParse(value);
  if (!result.success)
    throw new InvalidInputError(WHAT, under(formatZodIssues(result.error, AlarmSnsMessageSchema)));
  return result.data;
}

function metricText(
  namespace: string | null | undefined,
  name: string | null | undefined,
  dimensions: readonly (readonly [string, string])[],
): string | undefined {
  const metric = [namespace, name].filter(Boolean).join(' ');
  if (!metric) return undefined;
  const where = dimensions.map(([key, value]) => `${key}=${value}`).join(', ');
  return where ? `${metric} (${where})` : metric;
}

/** The console page of an alarm, when its ARN says which region and name. */
function consoleUrl(arn: string | undefined): string | undefined {
  const match = arn?.match(/^arn:aws[\w-]*:cloudwatch:([\w-]+):\d+:alarm:(.+)$/);
  if (!match) return undefined;
  const [, region, name] = match;
  return `https://${region}.console.aws.amazon.com/cloudwatch/home?region=${region}#alarmsV2:alarm/${encodeURIComponent(name!)}`;
}

interface AlarmFacts {
  delivery: 'eventbridge' | 'sns';
  name: string;
  arn: string | undefined;
  reason: string | undefined;
  description: string | undefined;
  at: string | undefined;
  culprit: string | undefined;
  tags: Record<string, string>;
}

function alarmEvent(facts: AlarmFacts): ErrorEvent {
  return {
    source: 'cloudwatch',
    delivery: facts.delivery,
    action: 'triggered',
    senderAction: 'ALARM',
    fingerprint: facts.arn ?? `alarm:${facts.name}`,
    title: facts.description ? `${facts.name}: ${facts.description}` : facts.name,
    culprit: facts.culprit,
    detail: facts.reason,
    level: 'error',
    counts: {},
    firstSeen: facts.at,
    lastSeen: facts.at,
    frames: [],
    tags: facts.tags,
    links: { web: consoleUrl(facts.arn) },
    route: { kind: 'cloudwatch-alarm', keys: [facts.name] },
  };
}
