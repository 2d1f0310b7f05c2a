import { terminalSafe } from '../terminal-text.js';
import { EXIT } from '../exit-codes.js';
import type { Output } from '../output.js';
import { withSession, type GlobalOptions } from '../session.js';
import { localBackend } from '../backend/local-backend.js';
import { dashboardData } from '../dashboard/dashboard-data.js';
import { startDashboardServer } from '../dashboard/dashboard-server.js';
import { untilStopped } from '../until-stopped.js';

export interface DashboardOptions extends GlobalOptions {
  /** 0: a free port. */
  port: number;
}

/**
 * `ralph dashboard`: the charts of the local store's runs (every run, one run, one project)
 * served on loopback until SIGINT or SIGTERM; a page polls while a run it shows is live.
 */
export async function dashboardCommand(options: DashboardOptions, output: Output): Promise<number> {
  return withSession(options, async ({ stack, flags }) => {
    const backend = localBackend(stack, flags);
    const server = await startDashboardServer({
      port: options.port,
      read: (view) => dashboardData(backend, view),
      onError: (error) =>
        process.stderr.write(
          `ralph dashboard: a request failed: ${terminalSafe(error instanceof Error ? error.message : String(error))}\n`,
        ),
    });
    output.line(`ralph-cloud · dashboard of the local store · ${server.url}`);
    output.line(`one run: ${server.url}?run=RUN · one project: ${server.url}?project=NAME`);
    output.line('stop with Ctrl-C');
    output.data({ url: server.url });
    await untilStopped();
    await server.close();
    return EXIT.ok;
  });
}
