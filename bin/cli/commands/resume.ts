import { resumeStoredRun } from '../../../lambdas/core/runs/control-runs.js';
import type { Output } from '../output.js';
import { withSession, type GlobalOptions } from '../session.js';
import { watchRun } from '../watch.js';
import { reportEnd } from '../report-end.js';
import { resumeThroughApi } from './run-remote.js';
import { localBackend } from '../backend/local-backend.js';
import { checkCleanTree } from '../preflight.js';
import { checkFollow } from '../live/follow-flags.js';
import type { LocalStack } from '../../../local/local-stack.js';

export interface ResumeOptions extends GlobalOptions {
  endpoint?: string;
  /** The run's new iteration limit: continues a run that stopped at its limit. */
  maxIterations?: number;
  /** Prints the agent's output as it comes (`--follow`). */
  follow?: boolean;
}

/**
 * `ralph resume RUN [--max-iterations N]`: starts the run's next segment here and follows
 * it: a paused run, one that stopped at its iteration limit or was cancelled (with a higher
 * limit), or one stored as running that no process runs any more (interrupted), which is
 * taken over. Through the use case the Run API's resume calls.
 */
export async function resumeCommand(
  runId: string,
  options: ResumeOptions,
  output: Output,
): Promise<number> {
  const { maxIterations } = options;
  checkFollow(options);
  if (options.endpoint)
    return resumeThroughApi(runId, { ...options, endpoint: options.endpoint }, output);
  return withSession(options, async (session) => {
    const { stack } = session;
    await checkResumable(stack, runId, session.flags);
    await watchRun(
      session,
      runId,
      async () => {
        // A run that another live ralph process runs is refused (its executions count as
        // running here: local-stack.ts), one whose process is gone is taken over.
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
      { json: output.json, follow: options.follow === true },
    );
    return reportEnd(localBackend(stack, session.flags), runId, output);
  });
}

/**
 * A dirty working tree would only pause the run again, spending an iteration: refused here
 * instead, unless the dirt may be the run's own interrupted agent's (its last iteration
 * never finished), which the runner keeps as evidence itself (interrupted-leftovers.ts).
 */
async function checkResumable(stack: LocalStack, runId: string, flags: string): Promise<void> {
  const run = await stack.deps.runs.getRun(runId);
  if (run?.repo.kind !== 'local' || run.iterationsStarted === 0) return;
  const last = await stack.deps.runs.getIteration(runId, run.iterationsStarted);
  if (last?.status !== 'recorded' || last.outcome === 'interrupted') return;
  await checkCleanTree(run.repo.path, run.prdPath, `\`ralph resume ${runId}${flags}\``);
}
