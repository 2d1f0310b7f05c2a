/**
 * The second stage: plan.json is parsed while the working copy is found (or cloned) and
 * checked; a local copy gets loop control's new tags meanwhile.
 */
import { resolve } from 'node:path';
import { IterationPlanSchema, type IterationPlan } from '../../lambdas/core/schemas/plan.js';
import { parseJsonText, parseOrThrow } from '../../lambdas/core/shared/validation.js';
import { openWorkspace, type Workspace, type WorkspaceProblem } from '../working-copy/workspace.js';
import { applyCheckpoints, tagsOnly } from './checkpoints.js';
import { workspaceOptions, type Claimed } from './claim.js';
import type { Facts } from './facts.js';
import type { Iteration } from './iteration.js';
import { settle, unwrap } from './settled.js';
import { keepInterruptedLeftovers } from './interrupted-leftovers.js';

export interface OpenedWorkspace {
  plan: IterationPlan;
  facts: Facts;
  workspace: Workspace;
  /** Loop control's new tags, when written while the copy was inspected. */
  tagged?: Promise<PromiseSettledResult<boolean>>;
}

/** The working copy cannot be used: the outcome says why. */
export interface UnusableWorkspace {
  plan: IterationPlan;
  facts: Facts;
  problem: WorkspaceProblem;
}

/** The plan or the working copy could not be read: a runner error, with what is known. */
export interface OpenFailed {
  error: unknown;
  facts: Facts;
}

/**
 * The plan and the working copy. A plan.json that cannot be read, or a copy that cannot be
 * inspected, comes back as a failure; a copy that cannot be used, as a problem (its tags'
 * failure does not matter then).
 */
export async function openWorkingCopy(
  it: Iteration,
  claimed: Claimed,
): Promise<OpenedWorkspace | UnusableWorkspace | OpenFailed> {
  const planning = claimed.planText.then(unwrap).then((text) => parsePlan(claimed.planKey, text));
  const tagged = tagLocalCopyEarly(it, planning);
  const [planned, opened] = await Promise.all([
    settle(planning),
    claimed.opening ??
      settle(openWorkspace(it.run, workspaceOptions(it.deps, it.record.iteration))),
  ]);
  const workspace =
    opened.status === 'fulfilled' && 'dir' in opened.value ? opened.value : undefined;
  if (planned.status === 'rejected' || !workspace) await tagged;
  if (planned.status === 'rejected') {
    await workspace?.dispose();
    return { error: planned.reason, facts: {} };
  }
  const plan = planned.value;
  const facts: Facts = {
    plan: {
      written: { plan: claimed.planKey },
      ...(plan.subtask ? { subtaskId: plan.subtask.id } : {}),
    },
  };
  if (opened.status === 'rejected') return { error: opened.reason, facts };
  let found = opened.value;
  if (!('dir' in found)) {
    const kept = await settle(keepInterruptedLeftovers(it, found));
    if (kept.status === 'rejected') return { error: kept.reason, facts };
    if (!kept.value) return { plan, facts, problem: found };
    // The tree is clean now: opened again, as it is.
    const reopened = await settle(
      openWorkspace(it.run, workspaceOptions(it.deps, it.record.iteration)),
    );
    if (reopened.status === 'rejected') return { error: reopened.reason, facts };
    found = reopened.value;
    if (!('dir' in found)) return { plan, facts, problem: found };
  }
  return { plan, facts, workspace: found, ...(tagged ? { tagged } : {}) };
}

function parsePlan(key: string, text: string): IterationPlan {
  return parseOrThrow(IterationPlanSchema, parseJsonText(text, key), key);
}

/**
 * Loop control's new tags (no reset) need only the plan and the directory, so a local
 * working copy gets them while it is inspected: they are refs of their own, apart from
 * what `git status` and the branch listing read. A clone's directory exists only once
 * it is cloned, and a reset moves the branch, which waits for the inspection.
 */
function tagLocalCopyEarly(
  it: Iteration,
  planning: Promise<IterationPlan>,
): Promise<PromiseSettledResult<boolean>> | undefined {
  const { repo } = it.run;
  if (repo.kind !== 'local') return undefined;
  const workspace = { dir: resolve(repo.path), spawner: it.deps.spawner, cloned: false };
  return settle(planning.then((plan) => tagsOnly(plan) && applyCheckpoints(it, workspace, plan)));
}
