import type { Output } from '../output.js';
import { runStatusText } from '../render.js';
import { withBackend, type BackendOptions } from '../backend/with-backend.js';
import { EXIT } from '../exit-codes.js';

/** `ralph status RUN`: where the run stands. */
export async function statusCommand(
  runId: string,
  options: BackendOptions,
  output: Output,
): Promise<number> {
  return withBackend(options, async (backend) => {
    const [{ run, stories: tasks }, iterations] = await Promise.all([
      backend.showRun(runId),
      backend.listIterations(runId),
    ]);
    output.line(
      runStatusText(run, tasks, iterations, {
        interrupted: await backend.interruptedRuns([run]),
        flags: backend.flags,
      }),
    );
    output.data({ run, tasks });
    return EXIT.ok;
  });
}
