/**
 * What one error event does to its group (pure): the counts always; the status by the
 * group's state and the event's action. Only a trigger (`created`, `triggered`,
 * `unresolved`) can start an investigation, and only of a group that has none open; a
 * group fixed or given up is not run again unless it regresses.
 */
import type { ErrorAction, ErrorEvent } from '../schemas/error-event.js';
import { OPEN_INVESTIGATION, type ErrorGroup } from '../schemas/error-group.js';
import type { ProjectRoute } from '../schemas/project-route.js';

export const TRIGGERS: ReadonlySet<ErrorAction> = new Set(['created', 'triggered', 'unresolved']);

/**
 * - `repeat`: its investigation is open (or it was fixed or given up): counts only;
 * - `unrouted`: no route names it;
 * - `updated`: its state changed (resolved, ignored) or the action is not a trigger;
 * - `run`: it goes into the project's batch (or is held at the hourly limit).
 */
export type GroupChange =
  | { readonly kind: 'repeat' | 'unrouted' | 'updated'; readonly group: ErrorGroup }
  | { readonly kind: 'run'; readonly group: ErrorGroup; readonly route: ProjectRoute };

/**
 * @example
 * const change = changeGroup(await incidents.getGroup(event), event, route, clock.now());
 */
export function changeGroup(
  existing: ErrorGroup | undefined,
  event: ErrorEvent,
  route: ProjectRoute | undefined,
  now: Date,
): GroupChange {
  const counted = countEvent(existing, event, now);
  if (existing !== undefined && OPEN_INVESTIGATION.has(existing.status))
    return { kind: 'repeat', group: counted };
  if (route === undefined) {
    const { projectId: _none, ...group } = counted;
    return {
      kind: 'unrouted',
      group: {
        ...group,
        status: 'unrouted',
        statusReason: `no project route matches ${event.route.kind} ${event.route.keys.map((key) => `"${key}"`).join(' or ')}`,
      },
    };
  }
  const routed = { ...counted, projectId: route.projectId };
  if (event.action === 'resolved' || event.action === 'ignored')
    return {
      kind: 'updated',
      group: {
        ...routed,
        status: 'resolved',
        statusReason: `${event.senderAction} in ${event.source}`,
      },
    };
  if (!TRIGGERS.has(event.action))
    return existing === undefined
      ? {
          kind: 'updated',
          group: {
            ...routed,
            status: 'resolved',
            statusReason: `first seen as "${event.senderAction}", which is not a trigger; the next trigger opens it`,
          },
        }
      : { kind: 'updated', group: routed };
  const ended = existing?.status === 'fixed' || existing?.status === 'given_up';
  if (ended && event.action !== 'unresolved') return { kind: 'repeat', group: routed };
  // Back after a fix, a give-up or a resolve that followed an investigation: a regression.
  const regressed = ended || (existing?.status === 'resolved' && existing.runId !== undefined);
  return {
    kind: 'run',
    route,
    group: { ...routed, regressions: routed.regressions + (regressed ? 1 : 0) },
  };
}

/** The group with this event counted: the latest event, one more delivery, the highest counts. */
function countEvent(existing: ErrorGroup | undefined, event: ErrorEvent, now: Date): ErrorGroup {
  const at = now.toISOString();
  const seen = event.counts.seen ?? 0;
  const users = event.counts.usersAffected ?? 0;
  if (existing === undefined)
    return {
      source: event.source,
      fingerprint: event.fingerprint,
      status: 'unrouted',
      latest: event,
      deliveries: 1,
      seen,
      usersAffected: users,
      firstReceivedAt: at,
      lastReceivedAt: at,
      regressions: 0,
      version: 1,
    };
  return {
    ...existing,
    latest: event,
    deliveries: existing.deliveries + 1,
    seen: Math.max(existing.seen, seen),
    usersAffected: Math.max(existing.usersAffected, users),
    lastReceivedAt: at,
  };
}
