/**
 * The one error model: whatever a sender posts (a Sentry webhook, a New Relic workflow
 * notification, a CloudWatch alarm state change) becomes error events of this shape, or an
 * {@link Ignored} that says why it is not one. Later code (dedup, batching, the investigate
 * run) reads only this, never a sender's payload.
 */
import { z } from 'zod';
/** Who sent the delivery: the senders the hooks authenticate. */
export const ERROR_SOURCES = ['sentry', 'newrelic', 'cloudwatch'] as const;
export const ErrorSourceSchema = z.enum(ERROR_SOURCES);
export type ErrorSource = z.infer<typeof ErrorSourceSchema>;

/** Severity, normalised across senders (Sentry `debug` is `info`; a critical alert is `fatal`). */
export const ERROR_LEVELS = ['fatal', 'error', 'warning', 'info'] as const;
export const ErrorLevelSchema = z.enum(ERROR_LEVELS);
export type ErrorLevel = z.infer<typeof ErrorLevelSchema>;

/**
 * What happened to the error group: a new group (`created`), an alert firing on it
 * (`triggered`), or a change of its state. Sentry's `archived` is its `ignored`.
 */
export const ERROR_ACTIONS = [
  'created',
  'triggered',
  'acknowledged',
  'assigned',
  'unresolved',
  'resolved',
  'ignored',
] as const;
export const ErrorActionSchema = z.enum(ERROR_ACTIONS);
export type ErrorAction = z.infer<typeof ErrorActionSchema>;

/** One frame of a stack trace, in the sender's order (Sentry: oldest first, the throw last). */
export const StackFrameSchema = z.strictObject({
  filename: z.string().optional(),
  absPath: z.string().optional(),
  function: z.string().optional(),
  module: z.string().optional(),
  lineno: z.number().int().optional(),
  colno: z.number().int().optional(),
  /** The sender's verdict that the frame is the application's own code, not a library's. */
  inApp: z.boolean(),
  contextLine: z.string().optional(),
});
export type StackFrame = z.infer<typeof StackFrameSchema>;

/** What a project route is matched on: the sender's name for the thing that erred. */
export const ROUTE_KINDS = ['sentry-project', 'newrelic-policy', 'cloudwatch-alarm'] as const;
export const RouteKeySchema = z.strictObject({
  kind: z.enum(ROUTE_KINDS),
  /** Every name a route may use for it (a Sentry project's slug and its id), first the best. */
  keys: z.array(z.string().min(1)).min(1),
});
export type RouteKey = z.infer<typeof RouteKeySchema>;

/** Which kind of delivery an event came from: a Sentry resource, New Relic's, CloudWatch's two. */
export const ERROR_DELIVERIES = [
  'issue',
  'event_alert',
  'error',
  'metric_alert',
  'workflow',
  'eventbridge',
  'sns',
] as const;

export const ErrorEventSchema = z.strictObject({
  source: ErrorSourceSchema,
  delivery: z.enum(ERROR_DELIVERIES),
  action: ErrorActionSchema,
  /** The sender's own word for the action (`archived`, `ACTIVATED`, `ALARM`), for the record. */
  senderAction: z.string().min(1),
  /** Stable per error group: repeats of one error share it, so (source, fingerprint) dedups. */
  fingerprint: z.string().min(1),
  title: z.string().min(1),
  /** Where it happened: Sentry's culprit, a metric and its dimensions. */
  culprit: z.string().optional(),
  /** More words from the sender: an exception's value, an alarm's reason. */
  detail: z.string().optional(),
  level: ErrorLevelSchema,
  counts: z.strictObject({
    /** Times seen (Sentry) or incidents in the issue (New Relic). */
    seen: z.number().int().nonnegative().optional(),
    usersAffected: z.number().int().nonnegative().optional(),
  }),
  /** ISO-8601 instants. */
  firstSeen: z.iso.datetime().optional(),
  lastSeen: z.iso.datetime().optional(),
  frames: z.array(StackFrameSchema),
  tags: z.record(z.string(), z.string()),
  links: z.strictObject({
    /** Where a person looks at it. */
    web: z.url().optional(),
    /** Where a program reads more of it (Sentry's API). */
    api: z.url().optional(),
  }),
  route: RouteKeySchema,
});
export type ErrorEvent = z.infer<typeof ErrorEventSchema>;

/**
 * A valid delivery that is not an error to investigate, and why (an installation, an alarm
 * back to OK). Distinct from invalid input, which throws: this one is answered, not refused.
 */
export const IgnoredSchema = z.strictObject({
  kind: z.literal('ignored'),
  source: ErrorSourceSchema,
  reason: z.string().min(1),
});
export type Ignored = z.infer<typeof IgnoredSchema>;

/** What one delivery becomes: error events (one or more), or a reason it is none. */
export const NormalisedSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('events'), events: z.array(ErrorEventSchema).min(1) }),
  IgnoredSchema,
]);
export type Normalised = z.infer<typeof NormalisedSchema>;

/** One delivery's events, checked against the model so a mapping slip cannot leak out. */
export function errorEvents(events: ErrorEvent[]): Normalised {
  return { kind: 'events', events: events.map((event) => ErrorEventSchema.parse(event)) };
}

export function ignored(source: ErrorSource, reason: string): Ignored {
  return { kind: 'ignored', source, reason };
}
