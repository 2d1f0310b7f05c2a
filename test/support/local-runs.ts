import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { newRunId, submitRun } from '../../lambdas/core/steps/lifecycle.js';
import type { LocalStack } from '../../local/local-stack.js';
import type { RunRecord } from '../../lambdas/core/schemas/run.js';
import type { IterationRecord } from '../../lambdas/core/schemas/iteration.js';
import type { TaskRecord } from '../../lambdas/core/schemas/task.js';
import type { Prd } from '../../lambdas/core/schemas/prd.js';
import type { RunConfigInput } from '../../lambdas/core/schemas/config.js';

export interface RunSnapshot {
  run: RunRecord;
  tasks: TaskRecord[];
  iterations: IterationRecord[];
}

/** Submits a run on the local stack exactly as `ralph run` does and returns its id. */
export async function submitLocalRun(
  stack: LocalStack,
  input: { repo: string; prd: Prd; config: RunConfigInput; prdPath?: string },
): Promise<string> {
  const runId = newRunId(new Date(), randomBytes(3).toString('hex'));
  await submitRun(
    { ...stack.deps, executions: stack.executions },
    {
      runId,
      repo: { kind: 'local', path: input.repo },
      prdPath: input.prdPath ?? 'prd.json',
      prd: input.prd,
      config: input.config,
    },
  );
  return runId;
}

/** Waits for every segment of the run to end, then reads everything stored about it. */
export async function runToEnd(stack: LocalStack, runId: string): Promise<RunSnapshot> {
  await stack.executions.waitForRun(runId);
  return readRun(stack, runId);
}

export async function readRun(stack: LocalStack, runId: string): Promise<RunSnapshot> {
  const run = await stack.deps.runs.getRun(runId);
  if (!run) throw new Error(`run ${runId} was not stored`);
  const [tasks, iterations] = await Promise.all([
    stack.deps.runs.listTasks(runId),
    stack.deps.runs.listIterations(runId),
  ]);
  return { run, tasks, iterations };
}

/** Polls until `predicate` holds (bounded), for steps another "process" takes. */
export async function waitUntil(
  predicate: () => Promise<boolean>,
  { timeoutMs = 20_000, everyMs = 50 } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/**
 * Waits for the data dir's store daemon to stop (it outlives its last client by a few
 * seconds): until then LevelDB may hold writes in its log and lock, and a copy of the data
 * dir is not a store at rest.
 */
export async function storeStopped(dataDir: string): Promise<void> {
  await waitUntil(async () => !existsSync(join(dataDir, 'stack.json')), { timeoutMs: 30_000 });
}
