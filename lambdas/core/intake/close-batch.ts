/**
 * Closing a batch: its run is started with the batch's groups as tasks. Safe to repeat (a
 * retried close, two closers at once): every step finds what an earlier attempt did.
 * 1. the batch is closed (open → closed, on its version);
 * 2. its groups still `pending` in it are ranked, and the first `maxErrorsPerRun` claimed:
 *    each saved `investigating` with the run, on its version (a group placed elsewhere in
 *    between is not claimed; a group a closer already claimed is counted);
 * 3. each task's group is stored (`artefactKeys.errorGroup`), then the run is submitted;
 * 4. groups past `maxErrorsPerRun` go into the project's next batch (held if the hourly
 *    limit is reached), not dropped.
 */
import {
  ArtefactExistsError,
  ExecutionExistsError,
  InvalidInputError,
  NotFoundError,
} from '../errors.js';
import { investigationRequest } from '../incidents/investigation-request.js';
import { rankGroups } from '../incidents/rank.js';
import { repoRefOf } from '../runs/repo-ref.js';
import type { ErrorGroup, InvestigationBatch } from '../schemas/error-group.js';
import type { ProjectRoute } from '../schemas/project-route.js';
import type { RunRequest } from '../schemas/run-request.js';
import { artefactKeys } from '../shared/artefact-keys.js';
import { submitRun } from '../steps/lifecycle.js';
import { placeGroup } from './batching.js';
import { retryOnConflict } from './conflicts.js';
import type { IntakeDeps } from './deps.js';

export interface BatchRef {
  readonly projectId: string;
  readonly batchId: string;
}

export interface BatchClosed {
  readonly projectId: string;
  readonly batchId: string;
  /** The run started, when the batch had groups left to investigate. */
  readonly runId?: string;
  readonly tasks: readonly string[];
  /** Groups moved to the next batch (past `maxErrorsPerRun`) or held. */
  readonly moved: number;
  /** Why no run started, when none did. */
  readonly reason?: string;
}

/** Batches closed in a row when the groups a close moves on land in batches without a window. */
const MAX_CHAINED_CLOSES = 5;

/**
 * @example
 * await closeBatch(deps, { projectId: 'shop', batchId: 'b00000001' });
 */
export async function closeBatch(
  deps: IntakeDeps,
  ref: BatchRef,
  chained = 0,
): Promise<BatchClosed> {
  const batch = await closed(deps, ref);
  const route = await deps.routes.getRoute(batch.projectId);
  const members = await membersOf(deps, batch);
  const pending = members.filter((group) => group.status === 'pending');
  const claimedBefore = members.filter((group) => group.status === 'investigating');
  const none = { projectId: batch.projectId, batchId: batch.batchId, tasks: [], moved: 0 };
  if (route === undefined) {
    await holdAll(deps, pending, `the route of ${batch.projectId} was removed`);
    return { ...none, moved: pending.length, reason: `no route for ${batch.projectId}` };
  }
  let repo;
  try {
    repo = repoRefOf(route.repo, { allowLocal: deps.allowLocalRepos });
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    const reason = `the route's repo cannot be run here: ${error.issues.join('; ')}`;
    await holdAll(deps, pending, reason);
    return { ...none, moved: pending.length, reason };
  }
  const room = Math.max(0, route.investigate.maxErrorsPerRun - claimedBefore.length);
  const ranked = rankGroups(pending, deps.clock.now()).map(({ group }) => group);
  const claimed = [...claimedBefore, ...(await claimAll(deps, batch, ranked.slice(0, room)))];
  if (claimed.length === 0) {
    const moved = await moveOn(deps, route, ranked.slice(room), chained);
    return { ...none, moved, reason: 'no error group was left to investigate' };
  }
  const plan = investigationRequest({
    route,
    repo,
    batch,
    groups: claimed,
    runId: batch.runId,
    now: deps.clock.now(),
  });
  for (const { taskId, group } of plan.tasks)
    await putOnce(
      deps,
      artefactKeys.errorGroup(batch.runId, taskId),
      JSON.stringify(group, null, 2),
    );
  await submitOnce(deps, plan.request);
  const moved = await moveOn(deps, route, [...ranked.slice(room), ...plan.left], chained);
  return { ...none, runId: batch.runId, tasks: plan.tasks.map((task) => task.taskId), moved };
}

/** The batch, closed by this call or an earlier one. */
async function closed(deps: IntakeDeps, ref: BatchRef): Promise<InvestigationBatch> {
  return retryOnConflict(async () => {
    const batch = await deps.incidents.getBatch(ref.projectId, ref.batchId);
    if (batch === undefined)
      throw new NotFoundError(`batch ${ref.batchId} of ${ref.projectId} does not exist`);
    if (batch.status === 'closed') return batch;
    return deps.incidents.saveBatch({ ...batch, status: 'closed' }, batch.version);
  });
}

/** The batch's groups that are still in it and its run (read once: pending or claimed). */
async function membersOf(deps: IntakeDeps, batch: InvestigationBatch): Promise<ErrorGroup[]> {
  const groups = await Promise.all(batch.groups.map((key) => deps.incidents.getGroup(key)));
  return groups.filter(
    (group): group is ErrorGroup =>
      group !== undefined && group.batchId === batch.batchId && group.runId === batch.runId,
  );
}

/** Saves each group `investigating` for the batch's run; those placed elsewhere meanwhile are skipped. */
async function claimAll(
  deps: IntakeDeps,
  batch: InvestigationBatch,
  groups: readonly ErrorGroup[],
): Promise<ErrorGroup[]> {
  const claimed: ErrorGroup[] = [];
  for (const first of groups) {
    const group = await retryOnConflict(async () => {
      const current = await deps.incidents.getGroup(first);
      if (current?.batchId !== batch.batchId || current.runId !== batch.runId) return undefined;
      if (current.status === 'investigating') return current;
      if (current.status !== 'pending') return undefined;
      return deps.incidents.saveGroup(
        { ...current, status: 'investigating', statusReason: undefined },
        current.version,
      );
    });
    if (group !== undefined) claimed.push(group);
  }
  return claimed;
}

/** Groups left over go into the project's next batch (closed at once when it has no window). */
async function moveOn(
  deps: IntakeDeps,
  route: ProjectRoute,
  groups: readonly ErrorGroup[],
  chained: number,
): Promise<number> {
  const due = new Set<string>();
  for (const group of groups) {
    const placement = await retryOnConflict(async () => {
      const current = await deps.incidents.getGroup(group);
      if (current === undefined || current.batchId !== group.batchId) return undefined;
      return placeGroup(deps, route, current, current.version);
    });
    if (placement?.outcome === 'queued' && placement.closeNow) due.add(placement.batch.batchId);
  }
  if (chained < MAX_CHAINED_CLOSES)
    for (const batchId of due)
      await closeBatch(deps, { projectId: route.projectId, batchId }, chained + 1);
  return groups.length;
}

async function holdAll(deps: IntakeDeps, groups: readonly ErrorGroup[], reason: string) {
  for (const group of groups)
    await retryOnConflict(async () => {
      const current = await deps.incidents.getGroup(group);
      if (current?.status !== 'pending' || current.batchId !== group.batchId) return;
      await deps.incidents.saveGroup(
        { ...current, status: 'held', statusReason: reason },
        current.version,
      );
    });
}

/** A write-once artefact another closer (or an earlier attempt) may have written already. */
async function putOnce(deps: IntakeDeps, key: string, body: string): Promise<void> {
  if (await deps.artefacts.exists(key)) return;
  try {
    await deps.artefacts.put(key, body, 'application/json');
  } catch (error) {
    if (!(error instanceof ArtefactExistsError)) throw error;
  }
}

/**
 * Stores the request and starts segment 1, once: a request already stored (an earlier
 * attempt, another closer) is started as it is, and a segment already started is done.
 */
async function submitOnce(deps: IntakeDeps, request: RunRequest): Promise<void> {
  try {
    if (await deps.artefacts.exists(artefactKeys.request(request.runId)))
      await deps.executions.startSegment({ runId: request.runId, segment: 1 });
    else
      await submitRun(deps, {
        runId: request.runId,
        repo: request.repo,
        prdPath: request.prdPath,
        prd: request.prd,
        config: request.config,
        projectId: request.projectId,
        ...(request.investigation === undefined ? {} : { investigation: request.investigation }),
      });
  } catch (error) {
    if (error instanceof ExecutionExistsError) return;
    if (error instanceof ArtefactExistsError) return submitOnce(deps, request);
    throw error;
  }
}
