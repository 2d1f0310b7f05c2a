import type { Output } from '../output.js';
import { withBackend, type BackendOptions } from '../backend/with-backend.js';
import { EXIT } from '../exit-codes.js';

/** `ralph cancel RUN`: a running run stops at its next step (its agent is stopped too). */
export async function cancelCommand(
  runId: string,
  options: BackendOptions,
  output: Output,
): Promise<number> {
  return withBackend(options, async (backend) => {
    const run = await backend.cancel(runId);
    output.line(
      run.status === 'cancelled'
        ? `run ${runId} cancelled`
        : `run ${runId}: cancel requested; it stops at its next step`,
    );
    output.data({ run });
    return EXIT.ok;
  });
}
