/**
 * The whole Run API over the local stack: every route's handlers (the ones each deployed
 * function serves), wired to the emulators and to this process's executions. A local server
 * also takes local repository paths, which a deployment cannot reach.
 */
import { artefactUrlSigner } from '../lambdas/adapters/artefact-urls.js';
import { createDynamoClient, createS3Client } from '../lambdas/adapters/aws-clients.js';
import { randomRunId } from '../lambdas/adapters/run-ids.js';
import { idempotencyStore } from '../lambdas/api/idempotency.js';
import { apiRouter, type ApiEntry, type ApiLogger } from '../lambdas/api/router.js';
import { artefactRoutes } from '../lambdas/api/routes/artefact.js';
import { controlRoutes } from '../lambdas/api/routes/control.js';
import { openApiRoutes } from '../lambdas/api/routes/openapi.js';
import { projectRoutes } from '../lambdas/api/routes/projects.js';
import { readRoutes } from '../lambdas/api/routes/read.js';
import { startRoutes } from '../lambdas/api/routes/start.js';
import { hookRoutes, type HookRouteDeps } from '../lambdas/api/routes/hooks.js';
import { EMULATOR_CREDENTIALS, type LocalStack } from './local-stack.js';

/** What `ralph serve` prints on stderr when a request fails with a 5xx. */
export const stderrLogger = {
  error: (message: string, details: Record<string, unknown>) => {
    const error = details.error as Error | undefined;
    process.stderr.write(
      `${message}: ${String(details.route)} (${String(details.requestId)}): ${error?.stack ?? String(error)}\n`,
    );
  },
};

/** The whole Run API on the local stack; with `hooks`, the webhook routes too (`ralph serve`). */
export function localApiEntry(
  stack: LocalStack,
  logger: ApiLogger = stderrLogger,
  hooks?: HookRouteDeps,
): ApiEntry {
  const { deps, executions, endpoints } = stack;
  const clientOptions = {
    region: endpoints.region,
    credentials: EMULATOR_CREDENTIALS,
  };
  const submit = { ...deps, executions };
  return apiRouter(
    {
      ...readRoutes(deps),
      ...artefactRoutes({
        ...deps,
        signUrl: artefactUrlSigner(
          createS3Client({ ...clientOptions, endpoint: endpoints.s3Endpoint }),
          endpoints.bucketName,
        ),
      }),
      ...startRoutes({
        ...submit,
        newRunId: () => randomRunId(deps.clock),
        allowLocalRepos: true,
        idempotency: idempotencyStore(
          createDynamoClient({ ...clientOptions, endpoint: endpoints.dynamoEndpoint }),
          endpoints.tableName,
        ),
      }),
      ...controlRoutes(submit),
      ...projectRoutes({ routes: stack.projectRoutes, clock: deps.clock, allowLocalRepos: true }),
      ...openApiRoutes(),
      ...(hooks === undefined ? {} : hookRoutes(hooks)),
    },
    logger,
  );
}
