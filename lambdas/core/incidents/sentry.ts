/**
 * Sentry deliveries → error events. The resource comes from the `Sentry-Hook-Resource`
 * header; the issue id is the fingerprint for every resource that has one, so an `issue`,
 * an `event_alert` and an `error` about the same issue fall into one error group.
 */
import type { z } from 'zod';
import { InvalidInputError } from '../errors.js';
import { parseJsonText, parseOrThrow } from '../shared/validation.js';
import {
  errorEvents,
  ignored,
  type ErrorAction,
  type ErrorEvent,
  type Normalised,
  type StackFrame,
} from '../schemas/error-event.js';
import {
  definedEntries,
  headerValue,
  isoInstant,
  levelFromWord,
  webUrl,
  type HookHeaders,
} from './fields.js';
import {
  SENTRY_RESOURCES,
  SentryErrorDeliverySchema,
  SentryEventAlertDeliverySchema,
  SentryCommentDeliverySchema,
  SentryInstallationDeliverySchema,
  SentryIssueDeliverySchema,
  SentryMetricAlertDeliverySchema,
  type SentryEvent,
  type SentryResource,
} from './sentry-payloads.js';

export const SENTRY_RESOURCE_HEADER = 'Sentry-Hook-Resource';

/** The resource a delivery is about, from its `Sentry-Hook-Resource` header. */
export function sentryResource(headers: HookHeaders): SentryResource {
  const resource = headerValue(headers, SENTRY_RESOURCE_HEADER)?.trim();
  const known = SENTRY_RESOURCES.join(', ');
  if (!resource)
    throw new InvalidInputError('Sentry delivery', [
      `${SENTRY_RESOURCE_HEADER}: missing; Sentry sends it on every webhook (one of ${known})`,
    ]);
  if (!(SENTRY_RESOURCES as readonly string[]).includes(resource))
    throw new InvalidInputError('Sentry delivery', [
      `${SENTRY_RESOURCE_HEADER}: unknown resource "${resource}"; known: ${known} (turn the others off in the integration's webhook settings)`,
    ]);
  return resource as SentryResource;
}

/**
 * One Sentry webhook delivery as error events, or why it is none.
 *
 * @example
 * normaliseSentry({ 'Sentry-Hook-Resource': 'issue' }, rawBody);
 */
export function normaliseSentry(headers: HookHeaders, body: string): Normalised {
  const resource = sentryResource(headers);
  const value = parseJsonText(body, `Sentry ${resource} delivery`);
  return NORMALISERS[resource](value, `Sentry ${resource} delivery`);
}

const NORMALISERS: Record<SentryResource, (value: unknown, what: string) => Normalised> = {
  issue: normaliseIssue,
  event_alert: (value, what) => {
    const delivery = parseOrThrow(SentryEventAlertDeliverySchema, value, what);
    const rule = delivery.data.triggered_rule;
    return errorEvents([
      fromEvent(delivery.data.event, 'event_alert', 'triggered', delivery.action, rule),
    ]);
  },
  error: (value, what) => {
    const delivery = parseOrThrow(SentryErrorDeliverySchema, value, what);
    return errorEvents([fromEvent(delivery.data.error, 'error', 'created', delivery.action)]);
  },
  metric_alert: normaliseMetricAlert,
  installation: (value, what) => {
    const delivery = parseOrThrow(SentryInstallationDeliverySchema, value, what);
    return ignored(
      'sentry',
      `installation ${delivery.action} (${delivery.data.installation.uuid}) is about the integration, not an error`,
    );
  },
  // A person's comment on an issue: nothing to investigate, and nothing to refuse either.
  comment: (value, what) => {
    const action = parseOrThrow(SentryCommentDeliverySchema, value, what).action;
    return ignored('sentry', `comment ${action} is a person's note on an issue, not an error`);
  },
};

/** Sentry's issue actions, in the model's words (`archived` is Sentry's newer `ignored`). */
const ISSUE_ACTIONS: Record<z.infer<typeof SentryIssueDeliverySchema>['action'], ErrorAction> = {
  created: 'created',
  resolved: 'resolved',
  assigned: 'assigned',
  ignored: 'ignored',
  archived: 'ignored',
  unresolved: 'unresolved',
};

function normaliseIssue(value: unknown, what: string): Normalised {
  const { action, data } = parseOrThrow(SentryIssueDeliverySchema, value, what);
  const issue = data.issue;
  return errorEvents([
    {
      source: 'sentry',
      delivery: 'issue',
      action: ISSUE_ACTIONS[action],
      senderAction: action,
      fingerprint: `issue:${issue.id}`,
      title: issue.title,
      culprit: issue.culprit ?? undefined,
      detail: issue.metadata?.value ?? undefined,
      level: levelFromWord(issue.level),
      counts: { seen: issue.count ?? undefined, usersAffected: issue.userCount ?? undefined },
      firstSeen: isoInstant(issue.firstSeen),
      lastSeen: isoInstant(issue.lastSeen),
      frames: [],
      tags: definedEntries([
        ['platform', issue.platform],
        ['shortId', issue.shortId],
        ['status', issue.status],
        ['substatus', issue.substatus],
      ]),
      links: { web: webUrl(issue.web_url) ?? webUrl(issue.permalink), api: webUrl(issue.url) },
      route: { kind: 'sentry-project', keys: [issue.project.slug, issue.project.id] },
    },
  ]);
}

/** The project slug in an event's API URL (`…/projects/{org}/{slug}/events/{id}/`). */
function projectSlugOf(eventApiUrl: string | null | undefined): string | undefined {
  return eventApiUrl?.match(/\/projects\/[^/]+\/([^/]+)\/events\//)?.[1];
}

function fromEvent(
  event: SentryEvent,
  delivery: 'event_alert' | 'error',
  action: ErrorAction,
  senderAction: string,
  rule?: string | null,
): ErrorEvent {
  const exceptions = event.exception?.values ?? [];
  // Sentry lists chained exceptions innermost last; the last one is what was thrown.
  const thrown = exceptions.at(-1);
  const tags = Object.fromEntries(
    (event.tags ?? []).flatMap(([key, value]) => (typeof value === 'string' ? [[key, value]] : [])),
  );
  const slug = projectSlugOf(event.url);
  const at = isoInstant(event.datetime);
  return {
    source: 'sentry',
    delivery,
    action,
    senderAction,
    fingerprint: `issue:${event.issue_id}`,
    title: event.title,
    culprit: event.culprit ?? undefined,
    detail: thrown?.value ?? event.metadata?.value ?? undefined,
    level: levelFromWord(event.level),
    counts: {},
    firstSeen: at,
    lastSeen: at,
    frames: (thrown?.stacktrace?.frames ?? []).map((frame): StackFrame => ({
      filename: frame.filename ?? undefined,
      absPath: frame.abs_path ?? undefined,
      function: frame.function ?? undefined,
      module: frame.module ?? undefined,
      lineno: frame.lineno ?? undefined,
      colno: frame.colno ?? undefined,
      inApp: frame.in_app ?? false,
      contextLine: frame.context_line ?? undefined,
    })),
    tags: {
      ...tags,
      ...definedEntries([
        ['eventId', event.event_id],
        ['rule', rule],
      ]),
    },
    links: { web: webUrl(event.web_url), api: webUrl(event.issue_url) },
    route: { kind: 'sentry-project', keys: slug ? [slug, event.project] : [event.project] },
  };
}

function normaliseMetricAlert(value: unknown, what: string): Normalised {
  const { action, data } = parseOrThrow(SentryMetricAlertDeliverySchema, value, what);
  const alert = data.metric_alert;
  const rule = alert.alert_rule;
  if (action === 'resolved')
    return ignored('sentry', `metric alert "${rule.name}" resolved: nothing is failing now`);
  const projects = alert.projects ?? rule.projects ?? [];
  const [firstProject, ...otherProjects] = projects;
  if (!firstProject)
    throw new InvalidInputError(what, [
      'data.metric_alert.projects: no project named, so no project route can take it',
    ]);
  return errorEvents([
    {
      source: 'sentry',
      delivery: 'metric_alert',
      action: 'triggered',
      senderAction: action,
      // The rule, not the incident: each firing of one rule is the same problem again.
      fingerprint: `metric-alert:${rule.id}`,
      title: data.description_title || rule.name,
      culprit: undefined,
      detail: data.description_text ?? undefined,
      level: action === 'critical' ? 'fatal' : 'warning',
      counts: {},
      firstSeen: isoInstant(alert.date_started ?? alert.date_detected),
      lastSeen: isoInstant(alert.date_detected ?? alert.date_started),
      frames: [],
      tags: definedEntries([
        ['rule', rule.name],
        ['incident', alert.title],
      ]),
      links: { web: webUrl(data.web_url) },
      route: { kind: 'sentry-project', keys: [firstProject, ...otherProjects] },
    },
  ]);
}
