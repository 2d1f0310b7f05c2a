import type { RunStatus } from '../../../lambdas/core/schemas/run.js';
import type { Output } from '../output.js';
import { runsTable } from '../render.js';
import { withBackend, type BackendOptions } from '../backend/with-backend.js';
import { EXIT } from '../exit-codes.js';

export interface RunsOptions extends BackendOptions {
  limit: number;
  status?: RunStatus;
  cursor?: string;
}

/** `ralph runs`: a page of stored runs, newest first. */
export async function runsCommand(options: RunsOptions, output: Output): Promise<number> {
  return withBackend(options, async (backend) => {
    const { runs, nextCursor } = await backend.listRuns({
      limit: options.limit,
      ...(options.status ? { status: options.status } : {}),
      ...(options.cursor ? { cursor: options.cursor } : {}),
    });
    output.line(
      runs.length === 0
        ? options.status || options.cursor
          ? 'no runs match'
          : `no runs yet: start one with \`ralph run${backend.flags}\``
        : runsTable(runs, { interrupted: await backend.interruptedRuns(runs) }),
    );
    if (nextCursor) output.line(`more: ralph runs --cursor ${nextCursor}${backend.flags}`);
    output.data({ runs, ...(nextCursor ? { nextCursor } : {}) });
    return EXIT.ok;
  });
}
