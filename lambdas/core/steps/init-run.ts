import { RunManifestSchema, type RunManifest } from '../schemas/documents.js';
import { artefactKeys } from '../shared/artefact-keys.js';
import { InvalidTransitionError } from '../errors.js';
import { parseJsonText, parseOrThrow } from '../shared/validation.js';
import { RunRequestSchema, type RunRequest } from '../schemas/run-request.js';
import { type LoopState } from '../schemas/loop-state.js';
import type { RunRecord } from '../schemas/run.js';
import { TASK_SCHEMA_VERSION, type TaskRecord } from '../schemas/task.js';
import type { LoopDeps } from './deps.js';
import { advanceLoaded } from './advance.js';
import { danglingIteration } from './interrupted.js';
import { freezeLearning } from './learning-snapshot.js';

const RESUMABLE: ReadonlySet<RunRecord['status']> = new Set(['running', 'paused']);

/**
 * The first step of every segment. Segment 1 creates the run from its stored request
 * (idempotent: a retried step finds the run already there); later segments take over a
 * paused or running run. Then it advances the loop as the Advance step does: it records
 * an iteration a dead segment left open as interrupted, decides, and plans the segment's
 * first iteration (`planned`), so the state machine goes straight to RunAgent.
 */
export async function initRun(deps: LoopDeps, input: LoopState): Promise<LoopState> {
  const { runId, segment } = input;
  let run = await deps.runs.getRun(runId);
  if (!run) {
    if (segment !== 1) throw new InvalidTransitionError(`run ${runId} does not exist`);
    run = await createRunFromRequest(deps, runId);
  } else if (run.segment !== segment) {
    run = await startSegment(deps, run, segment);
  }
  const [tasks, dangling] = await Promise.all([
    deps.runs.listTasks(runId),
    danglingIteration(deps, run, segment),
    // Before the first plan, which reads it; a later segment finds it taken.
    freezeLearning(deps, run),
  ]);
  return advanceLoaded(
    deps,
    { run, tasks },
    { runId, segment, ...(dangling ?? {}) },
    { missingOutcome: 'interrupted' },
  );
}

/**
 * The run's stored request, checked: NotFoundError when none was stored, InvalidInputError
 * (with the key and zod paths) when it cannot be read as one.
 */
export async function readRunRequest(
  artefacts: LoopDeps['artefacts'],
  runId: string,
): Promise<RunRequest> {
  const requestKey = artefactKeys.request(runId);
  return parseOrThrow(
    RunRequestSchema,
    parseJsonText(await artefacts.getText(requestKey), requestKey),
    requestKey,
  );
}

async function createRunFromRequest(deps: LoopDeps, runId: string): Promise<RunRecord> {
  const request = await readRunRequest(deps.artefacts, runId);
  const now = deps.clock.now().toISOString();
  const tasks: TaskRecord[] = request.prd.userStories.map((story, order) => ({
    schemaVersion: TASK_SCHEMA_VERSION,
    runId,
    taskId: story.id,
    title: story.title,
    priority: story.priority,
    order,
    story,
    status: story.passes ? 'complete' : 'not_started',
    version: 1,
    attempts: 0,
    timesBlocked: 0,
    stintStartAttempts: 0,
  }));
  const run: RunRecord = {
    runId,
    projectId: request.projectId,
    status: 'running',
    version: 1,
    createdAt: now,
    updatedAt: now,
    repo: request.repo,
    prdPath: request.prdPath,
    branchName: request.prd.branchName,
    project: request.prd.project,
    config: request.config,
    segment: 1,
    iterationsStarted: 0,
    segmentStartIteration: 0,
    lastRecordedIteration: 0,
    iterationsCompleted: 0,
    storiesTotal: tasks.length,
    storiesPassed: tasks.filter((task) => task.status === 'complete').length,
    consecutiveFailures: 0,
    costUsd: 0,
    cancelRequested: false,
    ...(request.investigation === undefined ? {} : { investigation: request.investigation }),
  };
  await deps.runs.createRun(run, tasks);
  const manifestKey = artefactKeys.manifest(runId);
  if (!(await deps.artefacts.exists(manifestKey))) {
    const manifest = RunManifestSchema.parse({
      run,
      prd: request.prd,
      config: request.config,
      repo: request.repo,
    } satisfies RunManifest);
    await deps.artefacts.put(manifestKey, JSON.stringify(manifest, null, 2), 'application/json');
  }
  return run;
}

async function startSegment(deps: LoopDeps, run: RunRecord, segment: number): Promise<RunRecord> {
  if (!RESUMABLE.has(run.status))
    throw new InvalidTransitionError(`run ${run.runId} is ${run.status} and cannot be resumed`);
  if (segment <= run.segment)
    throw new InvalidTransitionError(
      `run ${run.runId} is already in segment ${run.segment}; segment ${segment} is stale`,
    );
  return deps.runs.saveRun(
    {
      ...run,
      status: 'running',
      segment,
      segmentStartIteration: run.iterationsStarted,
      stopReason: undefined,
      updatedAt: deps.clock.now().toISOString(),
    },
    run.version,
  );
}
