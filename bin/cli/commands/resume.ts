import { resumeStoredRun } from '../../../lambdas/core/runs/control-runs.js';
import type { Output } from '../output.js';
import { withSession, type GlobalOptions } from '../session.js';
import { watchRun } from '../watch.js';
import { reportEnd } from '../report-end.js';
import { resumeThroughApi } from './run-remote.js';
import { localBackend } from '../backend/local-backend.js';

export interface ResumeOptions extends GlobalOptions {
  endpoint?: string;
  /** The run's new iteration limit: continues a run that stopped at its limit. */
  maxIterations?: number;
}

/**
 * `ralph resume RUN [--max-iterations N]`: starts the run's next segment here and follows
 * it: a paused run, or one that stopped at its iteration limit or was cancelled (with a
 * higher limit). Through the use case the Run API's resume calls. Only the process that
 * owns the store runs executions, so a run stored as running has lost the process that ran
 * it and is taken over (no execution of it runs here).
 */
export async function resumeCommand(
  runId: string,
  options: ResumeOptions,
  output: Output,
): Promise<number> {
  const { maxIterations } = options;
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
          const { segment } = await resumeStoredRun(
            { ...stack.deps, executions: stack.executions },
            runId,
            maxIterations === undefined ? {} : { maxIterations },
          );
          const run = await stack.deps.runs.getRun(runId);
          output.line(
            `ralph-cloud · local stack · resuming run ${runId} in segment ${segment}${
              maxIterations === undefined ? '' : ` · up to ${maxIterations} iterations`
            }${run?.config.evaluation.enabled ? ` · judge: ${stack.judgeLabel}` : ''}`,
          );
        },
        { json: output.json },
      );
      return reportEnd(localBackend(stack, session.dataDir), runId, output);
    },
    { executes: true },
  );
}
