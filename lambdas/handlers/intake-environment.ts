/**
 * The intake's ports in a deployed Lambda (the hook routes, the alarm events, the batch
 * closer), built once per container from its environment.
 */
import {
  createDynamoDocumentClient,
  createSecretsClient,
  createSfnClient,
} from '../adapters/aws-clients.js';
import { SfnBatchScheduler } from '../adapters/batch-close-scheduler.js';
import { CachedProjectRoutes } from '../adapters/cached-project-routes.js';
import { DynamoIncidentStore } from '../adapters/dynamodb/incident-store.js';
import { ItemTable } from '../adapters/dynamodb/item-table.js';
import { DynamoProjectRoutes } from '../adapters/dynamodb/project-routes.js';
import { nodeHookDigest } from '../adapters/hook-digest.js';
import { randomRunId } from '../adapters/run-ids.js';
import { secretsManagerHookSecrets } from '../adapters/secrets-manager-hook-secrets.js';
import type { HookRouteDeps } from '../api/routes/hooks.js';
import type { IntakeDeps } from '../core/intake/deps.js';
import { submitDepsFromEnvironment } from './api-environment.js';
import { required } from './store-environment.js';

let cached: IntakeDeps | undefined;

/**
 * TABLE_NAME, BUCKET_NAME, STATE_MACHINE_ARN (the run loop) and BATCH_CLOSER_ARN (the state
 * machine that waits for a batch's window and closes it).
 */
export function intakeDepsFromEnvironment(): IntakeDeps {
  if (cached) return cached;
  const deps = submitDepsFromEnvironment();
  const client = createDynamoDocumentClient({});
  const tableName = required('TABLE_NAME');
  cached = {
    ...deps,
    incidents: new DynamoIncidentStore({ client, tableName }),
    routes: new CachedProjectRoutes(
      new DynamoProjectRoutes(new ItemTable(client, tableName)),
      deps.clock,
    ),
    scheduler: new SfnBatchScheduler(createSfnClient({}), required('BATCH_CLOSER_ARN')),
    newRunId: () => randomRunId(deps.clock),
    // A deployment clones into a container: a path on the caller's machine means nothing there.
    allowLocalRepos: false,
  };
  return cached;
}

/**
 * The hook routes' ports: the intake's and the senders' secrets (SENTRY_SECRET_ARN,
 * NEWRELIC_SECRET_ARN, NEWRELIC_HEADER; a source whose secret is not set is refused).
 */
export function hookDepsFromEnvironment(): HookRouteDeps {
  const optional = (name: string) => process.env[name] || undefined;
  const sentrySecretId = optional('SENTRY_SECRET_ARN');
  const newRelicSecretId = optional('NEWRELIC_SECRET_ARN');
  const newRelicHeader = optional('NEWRELIC_HEADER');
  return {
    ...intakeDepsFromEnvironment(),
    secrets: secretsManagerHookSecrets({
      secrets: createSecretsClient({}),
      ...(sentrySecretId ? { sentrySecretId } : {}),
      ...(newRelicSecretId ? { newRelicSecretId } : {}),
      ...(newRelicHeader ? { newRelicHeader } : {}),
    }),
    digest: nodeHookDigest,
  };
}
