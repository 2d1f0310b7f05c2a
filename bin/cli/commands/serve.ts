import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { startApiServer } from '../../../local/api-server/api-server.js';
import { SERVE_FILE, writeServeFile } from '../../../local/api-server/serve-file.js';
import { HOOK_SECRETS_FILE } from '../../../local/api-server/hook-secrets-file.js';
import { localApiEntry, stderrLogger } from '../../../local/local-api.js';
import { localIntake } from '../../../local/local-intake.js';
import { terminalSafe } from '../terminal-text.js';
import { EXIT } from '../exit-codes.js';
import type { Output } from '../output.js';
import { withSession, type GlobalOptions } from '../session.js';
import { dataDirFlag } from '../data-dir.js';
import { untilStopped } from '../until-stopped.js';

export interface ServeOptions extends GlobalOptions {
  port?: number;
}

/**
 * `ralph serve`: the Run API on loopback over the local stack, signed with a fresh
 * credential written to `<data dir>/serve.json`, until SIGINT or SIGTERM, and the webhook
 * routes (secrets in `<data dir>/hooks.json`), whose batches close on timers here. Runs
 * started through it execute in this process.
 */
export async function serveCommand(options: ServeOptions, output: Output): Promise<number> {
  return withSession(options, async ({ stack }) => {
    const intake = localIntake(stack, {
      dataDir: options.dataDir,
      onCloseFailed: (batch, error) =>
        process.stderr.write(
          `ralph serve: batch ${batch.batchId} of ${batch.projectId} could not be closed (it stays open; the next start closes it): ${terminalSafe(error instanceof Error ? error.message : String(error))}\n`,
        ),
    });
    const credential = {
      accessKeyId: `RALPHLOCAL${randomBytes(5).toString('hex').toUpperCase()}`,
      secretAccessKey: randomBytes(30).toString('base64url'),
    };
    const { region } = stack.endpoints;
    const server = await startApiServer({
      entry: localApiEntry(stack, stderrLogger, intake.deps),
      credential,
      region,
      ...(options.port === undefined ? {} : { port: options.port }),
    });
    const file = await writeServeFile(options.dataDir, {
      endpoint: server.url,
      region,
      ...credential,
    });
    output.line(`ralph-cloud · Run API on the local stack · ${server.url}`);
    output.line(`credential (SigV4, region ${region}, service execute-api) in ${file}:`);
    output.line(`  access key ${credential.accessKeyId}`);
    output.line(`  secret     ${credential.secretAccessKey}`);
    output.line(`try: ralph runs --endpoint ${server.url}${dataDirFlag(options)}`);
    output.line(
      `hooks: POST ${server.url}/hooks/sentry and /hooks/newrelic (unsigned by SigV4; secrets in ${join(options.dataDir, HOOK_SECRETS_FILE)})`,
    );
    // Batches left open by an earlier server (or overdue) close now: a restart loses none.
    const reopened = await intake.resumeOpen();
    if (reopened > 0) output.line(`${reopened} open batch(es) from before scheduled to close`);
    output.line('stop with Ctrl-C');
    output.data({ endpoint: server.url, region, ...credential, file });
    await untilStopped(() => rmSync(join(options.dataDir, SERVE_FILE), { force: true }));
    await server.close();
    await intake.stop();
    return EXIT.ok;
  });
}
