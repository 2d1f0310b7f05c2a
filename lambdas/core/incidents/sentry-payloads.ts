/**
 * Sentry integration-platform webhook bodies, as Sentry's documentation shows them
 * (docs.sentry.io → Integrations → Integration Platform → Webhooks). Loose objects: Sentry
 * adds fields over time, and a field we do not read must never refuse a delivery. What the
 * error model reads is required.
 */
import { z } from 'zod';

// The `Sentry-Hook-Resource` values are the hooks' own list (the verifier's and `ralph hooks send`'s).
export { SENTRY_RESOURCES, type SentryResource } from '../shared/hook-auth/delivery.js';

const optionalText = z.string().nullish();
/** An id Sentry sends as a string in one resource and a number in another. */
const idText = z.union([z.string().min(1), z.number().int()]).transform(String);

/** A stack frame as Sentry serialises it; most fields may be null. */
export const SentryFrameSchema = z.looseObject({
  filename: optionalText,
  abs_path: optionalText,
  function: optionalText,
  module: optionalText,
  lineno: z.number().int().nullish(),
  colno: z.number().int().nullish(),
  in_app: z.boolean().nullish(),
  context_line: optionalText,
});

/** The event inside `event_alert` (`data.event`) and `error` (`data.error`) deliveries. */
export const SentryEventSchema = z.looseObject({
  event_id: z.string().min(1),
  /** The issue (error group) the event belongs to. */
  issue_id: idText,
  title: z.string().min(1),
  culprit: optionalText,
  level: optionalText,
  datetime: optionalText,
  /** The project's numeric id. */
  project: idText,
  /** API URL of the event: `…/projects/{org}/{project slug}/events/{id}/`. */
  url: optionalText,
  web_url: optionalText,
  issue_url: optionalText,
  metadata: z.looseObject({ type: optionalText, value: optionalText }).nullish(),
  exception: z
    .looseObject({
      values: z
        .array(
          z.looseObject({
            type: optionalText,
            value: optionalText,
            stacktrace: z.looseObject({ frames: z.array(SentryFrameSchema).nullish() }).nullish(),
          }),
        )
        .nullish(),
    })
    .nullish(),
  /** `[key, value]` pairs; a value that is not text is left out of the event. */
  tags: z.array(z.tuple([z.string(), z.unknown()])).nullish(),
});
export type SentryEvent = z.infer<typeof SentryEventSchema>;

/** `data.issue` of an `issue` delivery: the error group itself. */
export const SentryIssueSchema = z.looseObject({
  id: idText,
  title: z.string().min(1),
  culprit: optionalText,
  level: optionalText,
  /** Times seen; Sentry sends it as a string of digits. */
  count: z
    .union([z.string().regex(/^\d+$/), z.number().int()])
    .transform(Number)
    .nullish(),
  userCount: z.number().int().nonnegative().nullish(),
  firstSeen: optionalText,
  lastSeen: optionalText,
  platform: optionalText,
  shortId: optionalText,
  status: optionalText,
  substatus: optionalText,
  web_url: optionalText,
  permalink: optionalText,
  url: optionalText,
  metadata: z.looseObject({ type: optionalText, value: optionalText }).nullish(),
  project: z.looseObject({
    id: idText,
    slug: z.string().min(1),
  }),
});

export const SentryIssueDeliverySchema = z.looseObject({
  action: z.enum(['created', 'resolved', 'assigned', 'ignored', 'archived', 'unresolved']),
  data: z.looseObject({ issue: SentryIssueSchema }),
});

export const SentryEventAlertDeliverySchema = z.looseObject({
  action: z.literal('triggered'),
  data: z.looseObject({ event: SentryEventSchema, triggered_rule: optionalText }),
});

export const SentryErrorDeliverySchema = z.looseObject({
  action: z.literal('created'),
  data: z.looseObject({ error: SentryEventSchema }),
});

export const SentryMetricAlertDeliverySchema = z.looseObject({
  action: z.enum(['critical', 'warning', 'resolved']),
  data: z.looseObject({
    description_title: optionalText,
    description_text: optionalText,
    web_url: optionalText,
    metric_alert: z.looseObject({
      id: idText,
      title: optionalText,
      date_started: optionalText,
      date_detected: optionalText,
      projects: z.array(z.string().min(1)).nullish(),
      alert_rule: z.looseObject({
        id: idText,
        name: z.string().min(1),
        projects: z.array(z.string().min(1)).nullish(),
      }),
    }),
  }),
});

export const SentryInstallationDeliverySchema = z.looseObject({
  action: z.enum(['created', 'deleted']),
  data: z.looseObject({ installation: z.looseObject({ uuid: z.string().min(1) }) }),
});

/** A comment on an issue (created, updated, deleted): only its action is read. */
export const SentryCommentDeliverySchema = z.looseObject({
  action: z.string().min(1),
  data: z.looseObject({}),
});
