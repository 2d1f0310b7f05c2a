import { requestCancel } from '../../../lambdas/core/steps/lifecycle.js';
import type { Output } from '../output.js';
import { withSession, type GlobalOptions } from '../session.js';
import { EXIT } from '../exit-codes.js';

/** `ralph cancel RUN`: a running run stops at its next step (its agent is stopped too). */
export async function cancelCommand(
  runId: string,
  options: GlobalOptions,
  output: Output,
): Promise<number> {
  return withSession(options, async ({ stack }) => {
    // Only the process that owns the store runs executions: when that is this one, nothing
    // is running the run, and waiting for "its next step" would wait forever.
    const run = await requestCancel(stack.deps, runId, { noLiveExecution: stack.ownsStore });
    output.line(
      run.status === 'cancelled'
        ? `run ${runId} cancelled`
        : `run ${runId}: cancel requested; it stops at its next step`,
    );
    output.data({ run });
    return EXIT.ok;
  });
}
