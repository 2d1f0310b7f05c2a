import { resumeRun } from '../../../lambdas/core/loop/lifecycle.js';
import type { Output } from '../output.js';
import { withSession, type GlobalOptions } from '../session.js';
import { watchRun } from '../watch.js';
import { reportEnd } from './run.js';

/**
 * `ralph resume RUN`: starts the run's next segment here and follows it. A run stored as
 * running may be resumed only when no other ralph process serves the store (its segment
 * died with the process that ran it).
 */
export async function resumeCommand(
  runId: string,
  options: GlobalOptions,
  output: Output,
): Promise<number> {
  return withSession(options, async (session) => {
    const { stack } = session;
    await watchRun(
      session,
      runId,
      async () => {
        const { segment } = await resumeRun(
          { ...stack.deps, executions: stack.executions },
          runId,
          { allowRunning: stack.ownsStore },
        );
        output.line(`ralph-cloud · local stack · resuming run ${runId} in segment ${segment}`);
      },
      { json: output.json },
    );
    return reportEnd(session, runId, output);
  });
}
