import { resumeRun } from '../../../lambdas/core/steps/lifecycle.js';
import type { Output } from '../output.js';
import { withSession, type GlobalOptions } from '../session.js';
import { watchRun } from '../watch.js';
import { reportEnd } from '../report-end.js';
import { resumeThroughApi } from './run-remote.js';
import { localBackend } from '../backend/local-backend.js';

/**
 * `ralph resume RUN`: starts the run's next segment here and follows it. Only the process
 * that owns the store runs executions, so a run stored as running has lost the process that
 * ran it and may be taken over.
 */
export async function resumeCommand(
  runId: string,
  options: GlobalOptions & { endpoint?: string },
  output: Output,
): Promise<number> {
  if (options.endpoint)
    return resumeThroughApi(runId, { ...options, endpoint: options.endpoint }, output);
  return withSession(
    options,
    async (session) => {
      const { stack } = session;
      await watchRun(
        session,
        runId,
        async () => {
          const { segment } = await resumeRun(
            { ...stack.deps, executions: stack.executions },
            runId,
            // This process owns the store, so no other one is running the run: a run stored
            // as running lost its process and may be taken over.
            { allowRunning: true },
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
      return reportEnd(localBackend(stack, session.flags), runId, output);
    },
    { executes: true },
  );
}
