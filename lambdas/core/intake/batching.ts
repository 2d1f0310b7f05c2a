/**
 * Putting a group into its project's batch. Writes go batch first, group second, each one
 * conditional on its own version (no write needs a transaction):
 * 1. the open batch gets the group's key (or a new batch opens with it, if the hourly limit
 *    lets one more run start);
 * 2. the group is saved `pending` with that batch and its run;
 * 3. the batch is read again: still open, its close is scheduled (once); closed in between
 *    (its close may not have seen the group pending), the group is placed again.
 * A close claims a group by saving it `investigating` on its version, so a group placed
 * again and a group claimed race on that version: exactly one of them wins.
 */
import { TransientError } from '../errors.js';
import type { ErrorGroup, ErrorGroupKey, InvestigationBatch } from '../schemas/error-group.js';
import type { ProjectRoute } from '../schemas/project-route.js';
import { retryOnConflict } from './conflicts.js';
import { hourOf, nextBatchId } from './batch-ids.js';
import type { IntakeDeps } from './deps.js';

/** Groups one batch holds at most (the item stays far below DynamoDB's 400 KB). */
export const MAX_BATCH_GROUPS = 100;

/** How often a group is placed again after its batch closed under it, before giving up. */
const MAX_PLACEMENTS = 4;

export type Placement =
  | {
      readonly outcome: 'queued';
      readonly group: ErrorGroup;
      readonly batch: InvestigationBatch;
      /** The batch has no window (0 s): the caller closes it now. */
      readonly closeNow: boolean;
    }
  | { readonly outcome: 'held'; readonly group: ErrorGroup };

/**
 * Saves `group` (read at `expectedVersion`, undefined when new) `pending` in the project's
 * batch, or `held` with the reason when the hourly limit is reached or the batch is full.
 * A lost race on the group throws VersionConflictError: the caller reads it again.
 */
export async function placeGroup(
  deps: IntakeDeps,
  route: ProjectRoute,
  group: ErrorGroup,
  expectedVersion: number | undefined,
  placements = 1,
): Promise<Placement> {
  const now = deps.clock.now();
  const place = await batchFor(deps, route, group, now);
  if ('held' in place) {
    const held = { ...group, status: 'held' as const, statusReason: place.held };
    return { outcome: 'held', group: await deps.incidents.saveGroup(held, expectedVersion) };
  }
  const { statusReason: _reason, ...rest } = group;
  const pending = await deps.incidents.saveGroup(
    { ...rest, status: 'pending', batchId: place.batch.batchId, runId: place.batch.runId },
    expectedVersion,
  );
  return settlePending(deps, route, pending, placements);
}

/**
 * A pending group's batch, made sure of: open, its close scheduled; closed, the group placed
 * again. A repeat of a pending group comes through here too, so a delivery retried after the
 * scheduler failed schedules the close.
 */
export async function settlePending(
  deps: IntakeDeps,
  route: ProjectRoute,
  group: ErrorGroup,
  placements = 1,
): Promise<Placement> {
  const batch = await deps.incidents.getBatch(route.projectId, group.batchId ?? '');
  if (batch?.status === 'open' && batch.groups.some((key) => sameGroup(key, group)))
    return { outcome: 'queued', group, batch, closeNow: await scheduleClose(deps, batch) };
  if (placements >= MAX_PLACEMENTS)
    throw new TransientError(
      `error group ${group.source} ${group.fingerprint}: its batch closed under it ${placements} times; retry`,
    );
  return placeGroup(deps, route, group, group.version, placements + 1);
}

/** The open batch with the group in it, or why the group is held. */
async function batchFor(
  deps: IntakeDeps,
  route: ProjectRoute,
  key: ErrorGroupKey,
  now: Date,
): Promise<{ batch: InvestigationBatch } | { held: string }> {
  const { projectId, investigate } = route;
  return retryOnConflict(async () => {
    const latest = await deps.incidents.latestBatch(projectId);
    if (latest?.status === 'open') {
      if (latest.groups.some((member) => sameGroup(member, key))) return { batch: latest };
      if (latest.groups.length >= MAX_BATCH_GROUPS)
        return {
          held: `the open batch ${latest.batchId} of ${projectId} already holds ${MAX_BATCH_GROUPS} error groups; the next delivery after it closes tries again`,
        };
      const groups = [...latest.groups, { source: key.source, fingerprint: key.fingerprint }];
      return { batch: await deps.incidents.saveBatch({ ...latest, groups }, latest.version) };
    }
    // A new batch is a new run. Counted before the batch is created: a delivery that then
    // loses the race to open it has counted a run that never starts (a conservative error).
    const hour = hourOf(now);
    if (!(await deps.incidents.countRun(projectId, hour, investigate.maxRunsPerHour)))
      return {
        held: `${projectId} started its ${investigate.maxRunsPerHour} investigate run(s) of the hour ${hour}:00Z (maxRunsPerHour); the next delivery after the hour tries again`,
      };
    const batch: InvestigationBatch = {
      projectId,
      batchId: nextBatchId(latest?.batchId),
      status: 'open',
      openedAt: now.toISOString(),
      closesAt: new Date(now.getTime() + investigate.batchWindowSeconds * 1000).toISOString(),
      groups: [{ source: key.source, fingerprint: key.fingerprint }],
      runId: deps.newRunId(),
      closeScheduled: false,
      version: 1,
    };
    return { batch: await deps.incidents.saveBatch(batch, undefined) };
  });
}

/**
 * Hands the batch's close to the scheduler once (true instead when it has no window: the
 * caller closes it now). A scheduler that fails throws, and the delivery is retried; one
 * that succeeds is recorded, and scheduling again is harmless if that record is lost.
 */
async function scheduleClose(deps: IntakeDeps, batch: InvestigationBatch): Promise<boolean> {
  if (batch.closesAt <= batch.openedAt) return true;
  if (batch.closeScheduled) return false;
  const { projectId, batchId, closesAt } = batch;
  await deps.scheduler.scheduleClose({ projectId, batchId, closesAt });
  await retryOnConflict(async () => {
    const current = await deps.incidents.getBatch(projectId, batchId);
    if (current?.status !== 'open' || current.closeScheduled) return;
    await deps.incidents.saveBatch({ ...current, closeScheduled: true }, current.version);
  });
  return false;
}

export const sameGroup = (a: ErrorGroupKey, b: ErrorGroupKey): boolean =>
  a.source === b.source && a.fingerprint === b.fingerprint;
