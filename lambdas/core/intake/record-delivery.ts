/**
 * Recording an authenticated delivery (authentication is the API's, before this): its
 * replay key kept (a replay is answered and nothing written), its events normalised (bad
 * input refused before anything is written), then each event's group changed and, for a
 * trigger, placed in its project's batch. A failure after the replay key was kept lets the
 * key go again before it leaves, so the sender's retry is taken: the store unreachable is a
 * TransientError (503), never "let it through".
 */
import { normalise, type HookHeaders } from '../incidents/normalise.js';
import type { ErrorEvent, ErrorSource } from '../schemas/error-event.js';
import type { ErrorGroup, InvestigationBatch } from '../schemas/error-group.js';
import type { HookAnswer, HookEventAnswer } from '../schemas/hook-answer.js';
import type { ProjectRoute } from '../schemas/project-route.js';
import { placeGroup, settlePending, type Placement } from './batching.js';
import { closeBatch } from './close-batch.js';
import { retryOnConflict } from './conflicts.js';
import type { IntakeDeps } from './deps.js';
import { changeGroup } from './group-change.js';

/**
 * How long a replay key is kept: past Sentry's 5-minute timestamp window (and its minute of
 * clock skew) a replayed Sentry delivery is refused as stale anyway.
 */
export const REPLAY_KEEP_SECONDS = 600;

export interface Delivery {
  readonly source: ErrorSource;
  readonly headers: HookHeaders;
  /** The raw body, as text. */
  readonly body: string;
  /** From the sender's authentication (a signature, a body digest, a message id). */
  readonly replayKey: string;
}

/** The answer and its status: 200 for a replay or an ignored delivery, 202 for recorded events. */
export interface DeliveryAnswer {
  readonly status: 200 | 202;
  readonly answer: HookAnswer;
}

/**
 * @example
 * const { status, answer } = await recordDelivery(deps, { source: 'sentry', headers, body, replayKey });
 */
export async function recordDelivery(
  deps: IntakeDeps,
  delivery: Delivery,
): Promise<DeliveryAnswer> {
  const normalised = normalise(delivery.source, delivery.headers, delivery.body);
  const receivedAt = deps.clock.now();
  const expiresAt = new Date(receivedAt.getTime() + REPLAY_KEEP_SECONDS * 1000);
  const kept = await deps.incidents.rememberDelivery(delivery.replayKey, {
    receivedAt: receivedAt.toISOString(),
    expiresAt: expiresAt.toISOString(),
  });
  if (!kept)
    return {
      status: 200,
      answer: { outcome: 'duplicate', reason: 'this delivery was received already' },
    };
  if (normalised.kind === 'ignored')
    return { status: 200, answer: { outcome: 'ignored', reason: normalised.reason } };
  try {
    const events: HookEventAnswer[] = [];
    for (const event of normalised.events) events.push(await recordEvent(deps, event));
    return { status: 202, answer: { outcome: 'recorded', events } };
  } catch (error) {
    await deps.incidents.forgetDelivery(delivery.replayKey).catch(() => undefined);
    throw error;
  }
}

/** One event: its group changed, and placed in a batch when it is to run. */
export async function recordEvent(deps: IntakeDeps, event: ErrorEvent): Promise<HookEventAnswer> {
  // The route and the group are read together; a retry after a lost race reads the group again.
  const [route, firstRead] = await Promise.all([
    routeOf(deps, event),
    deps.incidents.getGroup(event),
  ]);
  let read: Promise<ErrorGroup | undefined> | undefined = Promise.resolve(firstRead);
  const { outcome, group, closeNow } = await retryOnConflict(async (): Promise<Recorded> => {
    const stored = await (read ?? deps.incidents.getGroup(event));
    read = undefined;
    const existing = await unlessAbandoned(deps, stored);
    const change = changeGroup(existing, event, route, deps.clock.now());
    if (change.kind === 'run')
      return recorded(await placeGroup(deps, change.route, change.group, existing?.version));
    const saved = await deps.incidents.saveGroup(change.group, existing?.version);
    // A pending group's batch is made sure of on every repeat: a delivery retried after the
    // scheduler failed schedules the close it missed.
    if (route === undefined || saved.status !== 'pending')
      return { outcome: change.kind, group: saved };
    return { ...recorded(await settlePending(deps, route, saved)), outcome: change.kind };
  });
  // A batch without a window closed within this delivery: the answer shows the group as the
  // close left it (investigating, its run named).
  const answered = closeNow === undefined ? group : await closedNow(deps, closeNow, group);
  return {
    source: answered.source,
    fingerprint: answered.fingerprint,
    outcome,
    status: answered.status,
    ...(answered.statusReason === undefined ? {} : { reason: answered.statusReason }),
    ...(answered.batchId === undefined ? {} : { batchId: answered.batchId }),
    ...(answered.runId === undefined ? {} : { runId: answered.runId }),
  };
}

/** A run that has ended: it will not conclude a group it was investigating any more. */
const ENDED: ReadonlySet<string> = new Set([
  'completed',
  'max_iterations',
  'aborted',
  'cancelled',
  'failed',
]);

/**
 * The group, or, when it is `investigating` by a run that has ended without concluding it
 * (its task blocked, the run cancelled or failed before the pull-request step), the group
 * as `held` with why: its investigation is no longer open, so the next trigger runs it
 * again instead of only counting. A run not yet created (its batch just closed) is open.
 */
async function unlessAbandoned(
  deps: IntakeDeps,
  group: ErrorGroup | undefined,
): Promise<ErrorGroup | undefined> {
  if (group?.status !== 'investigating' || group.runId === undefined) return group;
  const run = await deps.runs.getRun(group.runId);
  if (run === undefined || !ENDED.has(run.status)) return group;
  return {
    ...group,
    status: 'held',
    statusReason: `its run ${run.runId} ended ${run.status} without concluding it`,
  };
}

/** Closes a batch without a window, and reads the group again as the close left it. */
async function closedNow(
  deps: IntakeDeps,
  batch: InvestigationBatch,
  group: ErrorGroup,
): Promise<ErrorGroup> {
  await closeBatch(deps, batch);
  return (await deps.incidents.getGroup(group)) ?? group;
}

interface Recorded {
  readonly outcome: HookEventAnswer['outcome'];
  readonly group: ErrorGroup;
  /** A batch without a window, to close now. */
  readonly closeNow?: InvestigationBatch;
}

function recorded(placement: Placement): Recorded {
  if (placement.outcome === 'held') return placement;
  return {
    outcome: 'queued',
    group: placement.group,
    ...(placement.closeNow ? { closeNow: placement.batch } : {}),
  };
}

/** The route of the first of the event's keys that one names. */
async function routeOf(deps: IntakeDeps, event: ErrorEvent): Promise<ProjectRoute | undefined> {
  for (const key of event.route.keys) {
    const route = await deps.routes.findRoute({ kind: event.route.kind, key });
    if (route !== undefined) return route;
  }
  return undefined;
}
