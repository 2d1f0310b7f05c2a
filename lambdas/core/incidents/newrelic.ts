/**
 * New Relic workflow deliveries → error events. The fingerprint is the alert condition(s)
 * on the impacted entities when the payload names both: a New Relic issue is opened afresh
 * each time a condition fires again, but it is the same problem. Without them, the issue id.
 */
import { parseJsonText, parseOrThrow } from '../shared/validation.js';
import {
  errorEvents,
  ignored,
  type ErrorAction,
  type ErrorLevel,
  type Normalised,
} from '../schemas/error-event.js';
import { definedEntries, isoInstant, webUrl } from './fields.js';
import {
  NewRelicWorkflowPayloadSchema,
  type NEW_RELIC_PRIORITIES,
  type NEW_RELIC_STATES,
  type NewRelicWorkflowPayload,
} from './newrelic-payload.js';

const ACTIONS: Record<Exclude<(typeof NEW_RELIC_STATES)[number], 'CLOSED'>, ErrorAction> = {
  CREATED: 'created',
  ACTIVATED: 'triggered',
  ACKNOWLEDGED: 'acknowledged',
};

const LEVELS: Record<(typeof NEW_RELIC_PRIORITIES)[number], ErrorLevel> = {
  CRITICAL: 'fatal',
  HIGH: 'error',
  MEDIUM: 'warning',
  LOW: 'info',
};

/**
 * One New Relic workflow webhook delivery as an error event, or why it is none.
 *
 * @example
 * normaliseNewRelic(rawBody);
 */
export function normaliseNewRelic(body: string): Normalised {
  const what = 'New Relic workflow delivery';
  const payload = parseOrThrow(NewRelicWorkflowPayloadSchema, parseJsonText(body, what), what);
  const issueId = (payload.id ?? payload.issueId)!;
  if (payload.state === 'CLOSED')
    return ignored('newrelic', `issue ${issueId} closed: nothing is failing now`);
  const conditions = payload.alertConditionNames ?? [];
  const entities = payload.impactedEntities ?? [];
  return errorEvents([
    {
      source: 'newrelic',
      delivery: 'workflow',
      action: ACTIONS[payload.state],
      senderAction: payload.state,
      fingerprint: fingerprintOf(issueId, conditions, entities),
      title: payload.title,
      culprit: entities.length > 0 ? entities.join(', ') : undefined,
      detail: conditions.length > 0 ? `condition: ${conditions.join(', ')}` : undefined,
      level: LEVELS[payload.priority],
      counts: { seen: payload.totalIncidents ?? undefined },
      firstSeen: isoInstant(payload.createdAt),
      lastSeen: isoInstant(payload.updatedAt ?? payload.createdAt),
      frames: [],
      tags: tagsOf(payload, issueId),
      links: { web: webUrl(payload.issueUrl) },
      route: { kind: 'newrelic-policy', keys: payload.alertPolicyNames },
    },
  ]);
}

function fingerprintOf(issueId: string, conditions: string[], entities: string[]): string {
  if (conditions.length === 0 || entities.length === 0) return `issue:${issueId}`;
  const sorted = (list: string[]) => [...list].sort().join(',');
  return `condition:${sorted(conditions)}@${sorted(entities)}`;
}

function tagsOf(payload: NewRelicWorkflowPayload, issueId: string): Record<string, string> {
  return definedEntries([
    ['issueId', issueId],
    ['priority', payload.priority],
    ['trigger', payload.trigger],
    ['workflow', payload.workflowName],
    ['isCorrelated', payload.isCorrelated?.toString()],
    ['sources', payload.sources?.join(',')],
  ]);
}
