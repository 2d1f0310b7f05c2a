/**
 * A verified fix to a draft pull request, safe to retry at every point: the record is saved
 * (`pending`, a conditional create) before anything is pushed, so a retried step finds it
 * and goes on from it; the branch and the pull request calls answer "already there" with
 * what is there. GitHub's refusals end the record `refused` with the reason; a GitHub that
 * stays unavailable through the adapter's retries throws its TransientError, and the state
 * machine retries the step.
 */
import {
  CodeHostRejectedError,
  DraftPullRequestsUnsupportedError,
  InvalidTransitionError,
  VersionConflictError,
} from '../errors.js';
import type { FixPullRequest, RunInvestigation } from '../schemas/investigation.js';
import type { CodeHost } from '../../ports.js';
import { FIX_BRANCH_PREFIX, type FixPullRequestDeps } from './fix-pull-request-deps.js';

/** The record before the first save: what the step knows before it calls the host. */
export type PendingPullRequest = Omit<FixPullRequest, 'version' | 'createdAt' | 'updatedAt'>;

/**
 * The pull request of `pending`'s task: the stored record's end state, or the one this call
 * reaches.
 */
export async function openPullRequestForFix(
  deps: FixPullRequestDeps & { codeHost: CodeHost },
  investigation: RunInvestigation,
  pending: PendingPullRequest,
): Promise<FixPullRequest> {
  let record = await createOrFind(deps, pending);
  if (record.state !== 'pending') return record;
  const save = (change: Partial<FixPullRequest>) =>
    deps.fixPullRequests.save(
      { ...record, ...change, updatedAt: deps.clock.now().toISOString() },
      record.version,
    );
  const { repo, branch, commit } = pendingFields(record);
  try {
    const refusal = await capReached(
      deps.codeHost,
      record,
      investigation.settings.maxOpenPullRequests,
    );
    if (refusal !== undefined) return await save({ state: 'refused', reason: refusal });
    await deps.codeHost.createBranch(repo, branch, commit);
    const opened = await deps.codeHost.openPullRequest(repo, {
      head: branch,
      base: record.base,
      title: record.title,
      body: record.body,
      draft: true,
      ifDraftUnsupported: investigation.settings.ifDraftUnsupported,
    });
    const { pullRequest } = opened;
    record = await save({
      state: 'opened',
      number: pullRequest.number,
      htmlUrl: pullRequest.htmlUrl,
      draft: pullRequest.draft,
    });
    return record;
  } catch (error) {
    if (
      error instanceof DraftPullRequestsUnsupportedError ||
      error instanceof CodeHostRejectedError
    )
      return save({ state: 'refused', reason: error.message });
    throw error;
  }
}

/** The stored record, created `pending` when there is none yet. */
export async function createOrFind(
  deps: FixPullRequestDeps,
  pending: PendingPullRequest,
): Promise<FixPullRequest> {
  const stored = await deps.fixPullRequests.get(pending.runId, pending.taskId);
  if (stored !== undefined) return stored;
  const now = deps.clock.now().toISOString();
  try {
    return await deps.fixPullRequests.save(
      { ...pending, createdAt: now, updatedAt: now, version: 1 },
      undefined,
    );
  } catch (error) {
    // Another attempt of this step created it between our read and write: go on from it.
    if (!(error instanceof VersionConflictError)) throw error;
    const raced = await deps.fixPullRequests.get(pending.runId, pending.taskId);
    if (raced === undefined) throw error;
    return raced;
  }
}

/**
 * The refusal when the repository already has `max` open pull requests from ralph. This
 * task's own (opened by an earlier attempt whose record was not saved) does not count.
 */
async function capReached(
  codeHost: CodeHost,
  record: FixPullRequest,
  max: number,
): Promise<string | undefined> {
  const open = await codeHost.listOpenPullRequests(record.repo, { headPrefix: FIX_BRANCH_PREFIX });
  if (open.some((pull) => pull.head === record.branch)) return undefined;
  if (open.length < max) return undefined;
  return `the repository ${record.repo.owner}/${record.repo.name} already has ${open.length} open pull request(s) from ralph (${FIX_BRANCH_PREFIX}*), its cap is ${max}: merge or close some, or raise maxOpenPullRequests`;
}

/** The fields a `pending` record always has (its schema refuses one without them). */
function pendingFields(record: FixPullRequest) {
  const { branch, commit } = record;
  if (branch === undefined || commit === undefined)
    throw new InvalidTransitionError(
      `the pull request record of task ${record.taskId} of run ${record.runId} is pending without a branch and commit`,
    );
  return { repo: record.repo, branch, commit };
}
