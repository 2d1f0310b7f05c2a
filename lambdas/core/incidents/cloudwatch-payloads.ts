/**
 * CloudWatch alarm state changes in the two shapes they reach us in, as AWS documents them:
 * the EventBridge event (`detail-type: "CloudWatch Alarm State Change"`, CloudWatch user
 * guide, "Alarm events and EventBridge") and the SNS notification whose `Message` is the
 * alarm as a JSON string (SNS developer guide, "HTTP/HTTPS notification JSON format"), posted
 * to an HTTP subscription or handed to a Lambda subscription inside `Records[].Sns`.
 */
import { z } from 'zod';

export const ALARM_STATES = ['ALARM', 'OK', 'INSUFFICIENT_DATA'] as const;
export const ALARM_STATE_CHANGE = 'CloudWatch Alarm State Change';

const AlarmStateSchema = z.looseObject({
  value: z.enum(ALARM_STATES),
  reason: z.string().nullish(),
  timestamp: z.string().nullish(),
});

/** One metric an alarm watches (a metric math alarm lists several, some only expressions). */
const AlarmMetricSchema = z.looseObject({
  id: z.string().nullish(),
  expression: z.string().nullish(),
  label: z.string().nullish(),
  metricStat: z
    .looseObject({
      metric: z.looseObject({
        namespace: z.string().nullish(),
        name: z.string().nullish(),
        dimensions: z.record(z.string(), z.string()).nullish(),
      }),
    })
    .nullish(),
});

export const AlarmEventBridgeEventSchema = z.looseObject({
  'detail-type': z.string().min(1),
  source: z.string().nullish(),
  account: z.string().nullish(),
  region: z.string().nullish(),
  time: z.string().nullish(),
  /** The alarm's ARN first. */
  resources: z.array(z.string()).nullish(),
  detail: z.looseObject({
    alarmName: z.string().min(1),
    state: AlarmStateSchema,
    previousState: AlarmStateSchema.nullish(),
    configuration: z
      .looseObject({
        description: z.string().nullish(),
        metrics: z.array(AlarmMetricSchema).nullish(),
      })
      .nullish(),
  }),
});
export type AlarmEventBridgeEvent = z.infer<typeof AlarmEventBridgeEventSchema>;

/** The alarm inside an SNS notification's `Message`. */
export const AlarmSnsMessageSchema = z.looseObject({
  AlarmName: z.string().min(1),
  AlarmDescription: z.string().nullish(),
  AWSAccountId: z.string().nullish(),
  NewStateValue: z.enum(ALARM_STATES),
  NewStateReason: z.string().nullish(),
  StateChangeTime: z.string().nullish(),
  /** A region's display name (`US East (N. Virginia)`), not its code. */
  Region: z.string().nullish(),
  /** Older notifications have no ARN. */
  AlarmArn: z.string().nullish(),
  OldStateValue: z.string().nullish(),
  Trigger: z
    .looseObject({
      MetricName: z.string().nullish(),
      Namespace: z.string().nullish(),
      Dimensions: z.array(z.looseObject({ name: z.string(), value: z.string() })).nullish(),
    })
    .nullish(),
});
export type AlarmSnsMessage = z.infer<typeof AlarmSnsMessageSchema>;

export const SNS_MESSAGE_TYPES = [
  'Notification',
  'SubscriptionConfirmation',
  'UnsubscribeConfirmation',
] as const;

/** The SNS envelope: an HTTP subscription's body, or `Records[].Sns` of a Lambda's event. */
export const SnsEnvelopeSchema = z.looseObject({
  Type: z.enum(SNS_MESSAGE_TYPES),
  MessageId: z.string().nullish(),
  TopicArn: z.string().nullish(),
  Subject: z.string().nullish(),
  Message: z.string(),
  Timestamp: z.string().nullish(),
});
export type SnsEnvelope = z.infer<typeof SnsEnvelopeSchema>;

export const SnsLambdaEventSchema = z.looseObject({
  Records: z.array(z.looseObject({ Sns: SnsEnvelopeSchema })).min(1),
});
