import type { Output } from '../output.js';
import { withBackend, type BackendOptions } from '../backend/with-backend.js';
import { CliError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { followRun } from '../follow.js';
import { reportEnd } from '../report-end.js';

/**
 * `ralph watch RUN`: follow a run that goes on elsewhere — in a deployment or `ralph serve`
 * (`--endpoint`), or in another `ralph` process on the same data dir — printing each
 * iteration as it is recorded, then the summary; the exit code says how it ended.
 */
export async function watchCommand(
  runId: string,
  options: BackendOptions,
  output: Output,
): Promise<number> {
  return withBackend(options, async (backend) => {
    await followRun(backend, runId, {
      write: (line) => output.line(line),
      // Locally, only another process runs runs: when this one owns the store, none does.
      whileRunning: () => {
        if (!backend.runsElsewhere)
          throw new CliError(
            `run ${runId} is stored as running, but no ralph process runs it (the one that did has stopped): \`ralph resume ${runId}${backend.flags}\` continues it`,
            EXIT.notPossible,
          );
      },
    });

    return reportEnd(backend, runId, output);
  });
}
