/**
 * The hooks on the local stack (`ralph serve`): the intake's ports over the emulators, the
 * senders' secrets from `<data dir>/hooks.json`, and batches closed on timers in this
 * process. At start every batch still open is scheduled again, so a batch whose server
 * stopped before it closed (or that is overdue) is closed now: a restart loses none.
 */
import { createDynamoDocumentClient } from '../lambdas/adapters/aws-clients.js';
import { DynamoIncidentStore } from '../lambdas/adapters/dynamodb/incident-store.js';
import { nodeHookDigest } from '../lambdas/adapters/hook-digest.js';
import { randomRunId } from '../lambdas/adapters/run-ids.js';
import type { HookRouteDeps } from '../lambdas/api/routes/hooks.js';
import { closeBatch } from '../lambdas/core/intake/close-batch.js';
import type { HookSecrets } from '../lambdas/ports.js';
import { fileHookSecrets } from './api-server/hook-secrets-file.js';
import { BatchTimers, type BatchRef } from './batch-timers.js';
import { EMULATOR_CREDENTIALS, type LocalStack } from './local-stack.js';

export interface LocalIntake {
  deps: HookRouteDeps;
  /** Schedules every open batch; returns how many. */
  resumeOpen(): Promise<number>;
  stop(): Promise<void>;
}

/** No data dir (an in-memory stack): no source is set up, and every hook is refused. */
const NO_SECRETS: HookSecrets = {
  sentryClientSecret: async () => undefined,
  newRelicCredential: async () => undefined,
};

export function localIntake(
  stack: LocalStack,
  options: { dataDir?: string; onCloseFailed(batch: BatchRef, error: unknown): void },
): LocalIntake {
  const { deps, executions, endpoints } = stack;
  const client = createDynamoDocumentClient({
    endpoint: endpoints.dynamoEndpoint,
    region: endpoints.region,
    credentials: EMULATOR_CREDENTIALS,
  });
  const timers = new BatchTimers({
    close: (batch) => closeBatch(intake, batch),
    onError: options.onCloseFailed,
  });
  const intake: HookRouteDeps = {
    ...deps,
    executions,
    incidents: new DynamoIncidentStore({ client, tableName: endpoints.tableName }),
    routes: stack.projectRoutes,
    scheduler: timers,
    newRunId: () => randomRunId(deps.clock),
    allowLocalRepos: true,
    secrets: options.dataDir === undefined ? NO_SECRETS : fileHookSecrets(options.dataDir),
    digest: nodeHookDigest,
  };
  return {
    deps: intake,
    resumeOpen: async () => {
      const open = await intake.incidents.listOpenBatches();
      for (const batch of open) await timers.scheduleClose(batch);
      return open.length;
    },
    stop: async () => {
      await timers.stop();
      client.destroy();
    },
  };
}
