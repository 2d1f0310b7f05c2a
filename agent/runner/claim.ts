/**
 * The first stage: the iteration is claimed, so that a duplicate delivery never runs the
 * agent twice. What needs no claim is started beside it: plan.json's read, and the
 * inspection of a local working copy.
 */
import { tmpdir } from 'node:os';
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';
import { NotFoundError } from '../../lambdas/core/errors.js';
import type { IterationRecord } from '../../lambdas/core/schemas/iteration.js';
import type { RunRecord } from '../../lambdas/core/schemas/run.js';
import {
  openWorkspace,
  type OpenWorkspaceOptions,
  type Workspace,
  type WorkspaceProblem,
} from '../working-copy/workspace.js';
import type { RunIterationInput, RunnerDeps } from './iteration.js';
import { settle } from './settled.js';

export interface Claimed {
  run: RunRecord;
  /** The iteration record, now `running`. */
  record: IterationRecord;
  planKey: string;
  /** plan.json's text, read since before the claim. */
  planText: Promise<PromiseSettledResult<string>>;
  /** A local working copy, opened (read only) since the run was read. */
  opening?: Promise<PromiseSettledResult<Workspace | WorkspaceProblem>>;
}

/**
 * Claims the iteration. Throws NotFoundError for a run that does not exist, and
 * IterationClaimedError (from the store) when the iteration is not `planned`.
 */
export async function claimIteration(deps: RunnerDeps, input: RunIterationInput): Promise<Claimed> {
  // plan.json's key is known from the input: it is read while the records are read and
  // the iteration is claimed (a claim that fails leaves the read unused).
  const planKey = artefactKeys.iteration(input.runId, input.iteration, 'plan.json');
  const planText = settle(deps.artefacts.getText(planKey));
  // The claim does not need the record read first (RunStore.claimIteration), so it is
  // made while the run is read.
  const claiming = settle(
    deps.runs.claimIteration(input.runId, input.iteration, deps.clock.now().toISOString()),
  );
  const run = await deps.runs.getRun(input.runId);
  if (!run) {
    await claiming;
    throw new NotFoundError(`run ${input.runId} does not exist`);
  }
  // A local working copy is inspected (read only) while the claim completes; a clone
  // waits for the claim, so none is made for an iteration another runner holds.
  const opening =
    run.repo.kind === 'local'
      ? settle(openWorkspace(run, workspaceOptions(deps, input.iteration)))
      : undefined;
  const claim = await claiming;
  if (claim.status === 'rejected') {
    // A local working copy needs no disposing; its git processes are let finish.
    await opening;
    throw claim.reason;
  }
  return {
    run,
    record: claim.value,
    planKey,
    planText,
    ...(opening === undefined ? {} : { opening }),
  };
}

export function workspaceOptions(deps: RunnerDeps, iteration: number): OpenWorkspaceOptions {
  return {
    spawner: deps.spawner,
    workspaceRoot: deps.workspaceRoot ?? tmpdir(),
    iteration,
    ...(deps.gitToken === undefined ? {} : { gitToken: deps.gitToken }),
  };
}
