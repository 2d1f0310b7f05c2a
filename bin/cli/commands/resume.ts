import { resumeRun } from '../../../lambdas/core/steps/lifecycle.js';
import type { Output } from '../output.js';
import { withSession, type GlobalOptions } from '../session.js';
import { watchRun } from '../watch.js';
import { reportEnd } from '../report-end.js';
import { resumeThroughApi } from './run-remote.js';
import { DEFAULT_DATA_DIR, localBackend } from '../backend/local-backend.js';
import { checkCleanTree } from '../preflight.js';
import type { LocalStack } from '../../../local/local-stack.js';

/**
 * `ralph resume RUN`: starts the run's next segment here and follows it. A run stored as
 * running that no process runs any more (interrupted) is taken over.
 */
export async function resumeCommand(
  runId: string,
  options: GlobalOptions & { endpoint?: string },
  output: Output,
): Promise<number> {
  if (options.endpoint)
    return resumeThroughApi(runId, { ...options, endpoint: options.endpoint }, output);
  return withSession(options, async (session) => {
    const { stack } = session;
    await checkResumable(stack, runId, session.dataDir);
    await watchRun(
      session,
      runId,
      async () => {
        const { segment } = await resumeRun(
          { ...stack.deps, executions: stack.executions },
          runId,
          // A run stored as running whose process is gone may be taken over; one that a
          // live process runs may not (its claim on the repository would refuse it too).
          { allowRunning: !(await stack.isRunLive(runId)) },
        );
        const run = await stack.deps.runs.getRun(runId);
        output.line(
          `ralph-cloud · local stack · resuming run ${runId} in segment ${segment}${
            run?.config.evaluation.enabled ? ` · judge: ${stack.judgeLabel}` : ''
          }`,
        );
      },
      { json: output.json },
    );
    return reportEnd(localBackend(stack, session.dataDir), runId, output);
  });
}

/**
 * A dirty working tree would only pause the run again, spending an iteration: refused here
 * instead, unless the dirt may be the run's own interrupted agent's (its last iteration
 * never finished), which the runner keeps as evidence itself (interrupted-leftovers.ts).
 */
async function checkResumable(stack: LocalStack, runId: string, dataDir: string): Promise<void> {
  const run = await stack.deps.runs.getRun(runId);
  if (run?.repo.kind !== 'local' || run.iterationsStarted === 0) return;
  const last = await stack.deps.runs.getIteration(runId, run.iterationsStarted);
  if (last?.status !== 'recorded' || last.outcome === 'interrupted') return;
  const flags = dataDir === DEFAULT_DATA_DIR ? '' : ` --data-dir ${dataDir}`;
  await checkCleanTree(run.repo.path, run.prdPath, `\`ralph resume ${runId}${flags}\``);
}
