import { loadRun } from '../../../lambdas/core/steps/load.js';
import type { Output } from '../output.js';
import { runStatusText } from '../render.js';
import { withSession, type GlobalOptions } from '../session.js';
import { EXIT } from '../exit-codes.js';

/** `ralph status RUN`: where the run stands, read from the store. */
export async function statusCommand(
  runId: string,
  options: GlobalOptions,
  output: Output,
): Promise<number> {
  return withSession(options, async ({ stack }) => {
    const run = await loadRun(stack.deps.runs, runId);
    const tasks = await stack.deps.runs.listTasks(runId);
    output.line(runStatusText(run, tasks));
    output.data({ run, tasks });
    return EXIT.ok;
  });
}
