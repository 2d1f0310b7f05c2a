import { artefactKeys } from '../artefact-keys.js';
import { InvalidTransitionError, NotFoundError } from '../errors.js';
import { parseJsonText, parseOrThrow } from '../validation.js';
import type { IterationPlan, LoopState } from '../schemas/iteration-io.js';
import { RunRequestSchema } from '../schemas/iteration-io.js';
import type { IterationRecord, RunRecord, TaskRecord } from '../schemas/records.js';
import { nextTask } from './decide-next.js';
import type { LoopDeps } from './deps.js';
import { loadRun } from './load.js';

/**
 * Hands out the next iteration number, picks its task and writes `plan.json`. Safe to
 * retry: a planned iteration that was never run is reused rather than numbered again.
 */
export async function prepareIteration(deps: LoopDeps, input: LoopState): Promise<LoopState> {
  let run = await loadRun(deps.runs, input.runId);
  if (run.status !== 'running')
    throw new InvalidTransitionError(`run ${run.runId} is ${run.status}, not running`);

  let record = await reusablePlannedIteration(deps, run);
  if (!record) {
    const tasks = await deps.runs.listTasks(run.runId);
    const task = nextTask(tasks);
    if (!task) throw new InvalidTransitionError(`run ${run.runId} has no open task to work on`);
    const iteration = run.iterationsStarted + 1;
    run = await deps.runs.saveRun(
      { ...run, iterationsStarted: iteration, updatedAt: deps.clock.now().toISOString() },
      run.version,
    );
    record = await planIteration(deps, run, task, iteration);
  }

  const planKey = artefactKeys.iteration(run.runId, record.iteration, 'plan.json');
  if (!(await deps.artefacts.exists(planKey))) {
    const plan = await buildPlan(deps, run, record);
    await deps.artefacts.put(planKey, JSON.stringify(plan, null, 2), 'application/json');
  }
  return {
    runId: run.runId,
    segment: input.segment,
    iteration: record.iteration,
  };
}

async function reusablePlannedIteration(
  deps: LoopDeps,
  run: RunRecord,
): Promise<IterationRecord | undefined> {
  if (run.iterationsStarted === 0 || run.lastRecordedIteration >= run.iterationsStarted)
    return undefined;
  const existing = await deps.runs.getIteration(run.runId, run.iterationsStarted);
  if (existing?.status === 'planned') return existing;
  if (existing) return undefined;
  // The number was claimed but the record never written: write it now under that number.
  const task = nextTask(await deps.runs.listTasks(run.runId));
  if (!task) return undefined;
  return planIteration(deps, run, task, run.iterationsStarted);
}

async function planIteration(
  deps: LoopDeps,
  run: RunRecord,
  task: TaskRecord,
  iteration: number,
): Promise<IterationRecord> {
  const record: IterationRecord = {
    runId: run.runId,
    iteration,
    segment: run.segment,
    status: 'planned',
    version: 1,
    taskId: task.taskId,
    taskTitle: task.title,
    attempt: task.attempts + 1,
    plannedAt: deps.clock.now().toISOString(),
    gates: [],
    agentClaimedComplete: false,
    filesChanged: [],
    artefacts: {
      plan: artefactKeys.iteration(run.runId, iteration, 'plan.json'),
    },
  };
  await deps.runs.createIteration(record);
  return record;
}

async function buildPlan(
  deps: LoopDeps,
  run: RunRecord,
  record: IterationRecord,
): Promise<IterationPlan> {
  const requestKey = artefactKeys.request(run.runId);
  const request = parseOrThrow(
    RunRequestSchema,
    parseJsonText(await deps.artefacts.getText(requestKey), requestKey),
    requestKey,
  );
  const story = request.prd.userStories.find((candidate) => candidate.id === record.taskId);
  if (!story) throw new NotFoundError(`story ${record.taskId} is not in the run's prd.json`);
  const tasks = await deps.runs.listTasks(run.runId);
  return {
    runId: run.runId,
    iteration: record.iteration,
    attempt: record.attempt,
    story,
    lastFailure: run.lastFailure,
    iterationsLeft: Math.max(0, run.config.limits.maxIterations - record.iteration),
    storiesRemaining: tasks.filter((task) => task.status !== 'complete').length,
  };
}
