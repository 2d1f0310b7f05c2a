import type { Output } from '../output.js';
import { withBackend, type BackendOptions } from '../backend/with-backend.js';
import { CliError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { followRun } from '../follow.js';
import { reportEnd } from '../report-end.js';
import { checkFollow } from '../live/follow-flags.js';
import { followLiveOutput } from '../live/live-output.js';

/**
 * `ralph watch RUN`: follow a run that goes on elsewhere — in a deployment or `ralph serve`
 * (`--endpoint`), or in another `ralph` process on the same data dir — printing each
 * iteration as it is recorded (with `--follow`, the agent's output too, as it comes), then
 * the summary; the exit code says how it ended.
 */
export async function watchCommand(
  runId: string,
  options: BackendOptions & { follow?: boolean },
  output: Output,
): Promise<number> {
  checkFollow(options);
  return withBackend(options, async (backend) => {
    const write = (line: string) => output.line(line);
    // checkFollow refused it with --endpoint: the backend is the local stack of the data dir.
    const live = options.follow ? followLiveOutput(options.dataDir, runId, { write }) : undefined;
    try {
      await followRun(backend, runId, {
        write,
        ...(live ? { live } : {}),
        // Locally, a run whose process is gone will never move again: say so and stop.
        whileRunning: async (run) => {
          if (run && (await backend.interruptedRuns([run])).has(run.runId))
            throw new CliError(
              `run ${runId} is stored as running, but no ralph process runs it (the one that did has stopped): \`ralph resume ${runId}${backend.flags}\` continues it`,
              EXIT.notPossible,
            );
        },
      });
    } finally {
      await live?.stop();
    }
    return reportEnd(backend, runId, output);
  });
}
