import { artefactKeys } from '../shared/artefact-keys.js';
import { InvalidTransitionError } from '../errors.js';
import { parseOrThrow } from '../shared/validation.js';
import { PrdSchema, type Prd } from '../schemas/prd.js';
import { RunConfigSchema, type RunConfigInput } from '../schemas/config.js';
import type { RepoRef, RunRecord } from '../schemas/run.js';
import type { RunInvestigation } from '../schemas/investigation.js';
import type { RunRequest } from '../schemas/run-request.js';
import type { LoopDeps, SubmitDeps } from './deps.js';
import { closeRun, TERMINAL_STATUSES } from './end-segment.js';
import { reopenRun, raiseLimit } from './extend-run.js';
import { closeInterruptedIteration } from './interrupted.js';
import { loadRun } from './load.js';

export interface SubmitRunInput {
  runId: string;
  repo: RepoRef;
  prdPath: string;
  /** Parsed JSON of prd.json, validated here. */
  prd: unknown;
  config: RunConfigInput | unknown;
  /** The project the run learns for; by default derived from prd.json's `project`. */
  projectId?: string;
  /** An investigate run's error groups (intake/close-batch.ts). */
  investigation?: RunInvestigation;
}

/**
 * Validates a run request, stores it, and starts segment 1. Nothing is written when the
 * prd or config is invalid: both are parsed before the first write.
 */
export async function submitRun(
  deps: SubmitDeps,
  input: SubmitRunInput,
): Promise<{ runId: string; executionId: string }> {
  const prd: Prd = parseOrThrow(PrdSchema, input.prd, 'prd.json');
  const config = parseOrThrow(RunConfigSchema, input.config ?? {}, 'ralph.config.json');
  const request: RunRequest = {
    runId: input.runId,
    projectId: input.projectId ?? projectIdOf(prd.project),
    repo: input.repo,
    prdPath: input.prdPath,
    prd,
    config,
    submittedAt: deps.clock.now().toISOString(),
    ...(input.investigation === undefined ? {} : { investigation: input.investigation }),
  };
  await deps.artefacts.put(
    artefactKeys.request(input.runId),
    JSON.stringify(request, null, 2),
    'application/json',
  );
  const { executionId } = await deps.executions.startSegment({ runId: input.runId, segment: 1 });
  return { runId: input.runId, executionId };
}

/**
 * Asks a run to stop. A running run stops at its next step (the runner also stops the
 * agent); a paused run — or a running one the caller knows has no execution left
 * (`noLiveExecution`) — has nothing to tell, so it is cancelled at once.
 */
export async function requestCancel(
  deps: LoopDeps,
  runId: string,
  options: { noLiveExecution?: boolean } = {},
): Promise<RunRecord> {
  const run = await loadRun(deps.runs, runId);
  if (TERMINAL_STATUSES.has(run.status))
    throw new InvalidTransitionError(`run ${runId} has already ended (${run.status})`);
  if (run.status === 'paused' || options.noLiveExecution) {
    await closeInterruptedIteration(deps, run);
    await closeRun(deps, {
      runId,
      segment: run.segment,
      action: 'cancel',
      reason: 'cancelled on request',
    });
    return loadRun(deps.runs, runId);
  }
  return deps.runs.saveRun(
    { ...run, cancelRequested: true, updatedAt: deps.clock.now().toISOString() },
    run.version,
  );
}

export interface ResumeOptions {
  /** The run's segment died while stored as running, which only the caller can know. */
  allowRunning?: boolean;
  /**
   * The run's new iteration limit, above the iterations it has used. Needed to continue a
   * run that stopped at its limit; optional for a cancelled or paused one.
   */
  maxIterations?: number;
}

/**
 * Starts the next segment of a paused run (or of a running one whose segment died:
 * `allowRunning`), or continues one that stopped at its iteration limit or was cancelled
 * (reopenRun). A run that completed, aborted or failed is refused with the reason.
 */
export async function resumeRun(
  deps: SubmitDeps,
  runId: string,
  options: ResumeOptions = {},
): Promise<{ segment: number; executionId: string }> {
  let run = await loadRun(deps.runs, runId);
  if (TERMINAL_STATUSES.has(run.status)) {
    run = await reopenRun(deps, run, options.maxIterations);
  } else {
    const resumable = run.status === 'paused' || (options.allowRunning && run.status === 'running');
    if (!resumable) throw new InvalidTransitionError(`run ${runId} is still running`);
    if (options.maxIterations !== undefined)
      run = await raiseLimit(deps, run, options.maxIterations);
  }
  const segment = run.segment + 1;
  const { executionId } = await deps.executions.startSegment({ runId, segment });
  return { segment, executionId };
}

/** A stable, key-safe project id from prd.json's `project`. */
export function projectIdOf(project: string): string {
  const slug = project
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug === '' ? 'project' : slug.slice(0, 64);
}

/**
 * A sortable, key-safe run id: UTC time to the second plus random hex.
 *
 * @example
 * newRunId(new Date('2026-11-23T10:00:00Z'), 'a1b2c3') // 'r20261123-100000-a1b2c3'
 */
export function newRunId(now: Date, randomHex: string): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `r${stamp}-${randomHex}`;
}
