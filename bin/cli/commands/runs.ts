import type { Output } from '../output.js';
import { runsTable } from '../render.js';
import { withSession, type GlobalOptions } from '../session.js';
import { EXIT } from '../exit-codes.js';

/** `ralph runs`: the stored runs, newest first. */
export async function runsCommand(
  options: GlobalOptions & { limit: number },
  output: Output,
): Promise<number> {
  return withSession(options, async ({ stack }) => {
    const { runs } = await stack.deps.runs.listRuns({ limit: options.limit });
    output.line(runs.length === 0 ? 'no runs yet: start one with `ralph run`' : runsTable(runs));
    output.data({ runs });
    return EXIT.ok;
  });
}
