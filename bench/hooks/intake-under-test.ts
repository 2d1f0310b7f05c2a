/**
 * What the bench calls: the local stack in memory (dynalite and s3rver on their worker
 * thread) with the hooks wired as `ralph serve` wires them (local/local-intake.ts: the
 * intake's ports over the emulators, batches closed on timers here, the Sentry client
 * secret read from a data dir's hooks.json on every delivery), one project route per Sentry
 * project the deliveries name, and the whole local API behind the local HTTP server. The
 * routes' batch window is the longest allowed, so no batch closes and no run starts while
 * the bench runs (the timers are cleared at the end), and their hourly run limit high (see
 * MAX_RUNS_PER_HOUR).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HookRouteDeps } from '../../lambdas/api/routes/hooks.js';
import type { ApiEntry } from '../../lambdas/api/router.js';
import { putProjectRoute } from '../../lambdas/core/projects/project-routes.js';
import { InvestigateSettingsSchema } from '../../lambdas/core/schemas/project-route.js';
import { REPO_ROOT } from '../../lib/paths.js';
import { HOOK_SECRETS_FILE } from '../../local/api-server/hook-secrets-file.js';
import { localApiEntry, stderrLogger } from '../../local/local-api.js';
import { localIntake } from '../../local/local-intake.js';
import { openLocalStack } from '../../local/local-stack.js';
import { startBenchServer } from '../api/api-under-test.js';

/** The longest batch window a route takes: no batch closes during the bench. */
export const BATCH_WINDOW_SECONDS = InvestigateSettingsSchema.shape.batchWindowSeconds.unwrap()
  .maxValue as number;

/**
 * Far over the default 6: deliveries racing to open a project's first batch each count a
 * run before one of them opens it (batching.ts: a conservative error), so a burst of more
 * than 6 in flight on a new project would hold groups instead of queueing them.
 */
export const MAX_RUNS_PER_HOUR = 1000;

export interface IntakeUnderTest {
  /** The router the server serves, for in-process deliveries. */
  entry: ApiEntry;
  /** The hook routes' ports, as the server's router has them (to time them apart). */
  deps: HookRouteDeps;
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** The Sentry integration's client secret in hooks.json. */
  clientSecret: string;
  close(): Promise<void>;
}

/** Opens the stack, saves a route per project in `projects`, and starts the server. */
export async function openIntakeUnderTest(projects: readonly string[]): Promise<IntakeUnderTest> {
  const dataDir = await mkdtemp(join(tmpdir(), 'ralph-bench-hooks-'));
  const clientSecret = randomBytes(32).toString('hex');
  await writeFile(join(dataDir, HOOK_SECRETS_FILE), JSON.stringify({ sentry: { clientSecret } }));
  const stack = await openLocalStack();
  const intake = localIntake(stack, {
    dataDir,
    onCloseFailed: (batch, error) =>
      process.stderr.write(`batch ${batch.batchId} could not be closed: ${String(error)}\n`),
  });
  const closeAll = async () => {
    await intake.stop();
    await stack.close();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const routeDeps = {
      routes: stack.projectRoutes,
      clock: stack.deps.clock,
      allowLocalRepos: true,
    };
    for (const project of projects)
      await putProjectRoute(routeDeps, project, {
        matches: [{ kind: 'sentry-project', key: project }],
        repo: REPO_ROOT,
        investigate: {
          batchWindowSeconds: BATCH_WINDOW_SECONDS,
          maxRunsPerHour: MAX_RUNS_PER_HOUR,
        },
      });
    const entry = localApiEntry(stack, stderrLogger, intake.deps);
    // The hook routes take no SigV4: the server's credential goes unused here.
    const { server } = await startBenchServer(entry, stack.endpoints.region);
    return {
      entry,
      deps: intake.deps,
      url: server.url,
      clientSecret,
      close: async () => {
        await server.close();
        await closeAll();
      },
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
