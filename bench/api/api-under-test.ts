/**
 * What the bench calls: the read and start routes over the local stack in memory, behind
 * the local HTTP server with a fresh credential, and the same router for in-process calls.
 *
 * The start route gets a counting no-op starter instead of the stack's executions: with
 * those, every `POST /runs` would start the run loop in this process (clone, agent, gates)
 * and those runs would compete for the event loop with the calls being timed, hundreds of
 * them. The route does everything else it does in a deployment: parse, check the repo,
 * store the request, start, answer `202`.
 */
import { randomBytes } from 'node:crypto';
import { createDynamoClient } from '../../lambdas/adapters/aws-clients.js';
import { randomRunId } from '../../lambdas/adapters/run-ids.js';
import { idempotencyStore } from '../../lambdas/api/idempotency.js';
import { apiRouter, type ApiEntry } from '../../lambdas/api/router.js';
import { readRoutes } from '../../lambdas/api/routes/read.js';
import { startRoutes } from '../../lambdas/api/routes/start.js';
import type { LoopDeps } from '../../lambdas/core/steps/deps.js';
import { startApiServer, type ApiServer } from '../../local/api-server/api-server.js';
import type { LocalCredential } from '../../local/api-server/signature-check.js';
import { EMULATOR_CREDENTIALS, openLocalStack } from '../../local/local-stack.js';
import { CountingStarter } from './counting-starter.js';

/**
 * The server's stage throttle, out of the way: the bench sends calls back to back, faster
 * than the default 50 per second, and measures latency, not throttling.
 */
const NO_THROTTLE = { rate: 1_000_000, burst: 1_000_000 };

/**
 * The local HTTP server over `entry` on a free loopback port, with a fresh credential and
 * its stage throttle out of the way.
 */
export async function startBenchServer(
  entry: ApiEntry,
  region: string,
): Promise<{ server: ApiServer; credential: LocalCredential }> {
  const credential = {
    accessKeyId: `RALPHBENCH${randomBytes(5).toString('hex').toUpperCase()}`,
    secretAccessKey: randomBytes(30).toString('base64url'),
  };
  const server = await startApiServer({ entry, credential, region, throttle: NO_THROTTLE });
  return { server, credential };
}

export interface ApiUnderTest {
  /** The router the server serves, for in-process calls. */
  entry: ApiEntry;
  /** `http://127.0.0.1:PORT` */
  url: string;
  credential: LocalCredential;
  region: string;
  /** The stack's ports (to seed a run as the state machine's first step would). */
  deps: LoopDeps;
  starter: CountingStarter;
  close(): Promise<void>;
}

/** Opens the stack in memory and starts the server on a free loopback port. */
export async function openApiUnderTest(): Promise<ApiUnderTest> {
  const stack = await openLocalStack();
  const { deps, endpoints } = stack;
  const starter = new CountingStarter();
  const entry = apiRouter({
    ...readRoutes(deps),
    ...startRoutes({
      ...deps,
      executions: starter,
      newRunId: () => randomRunId(deps.clock),
      allowLocalRepos: true,
      idempotency: idempotencyStore(
        createDynamoClient({
          region: endpoints.region,
          credentials: EMULATOR_CREDENTIALS,
          endpoint: endpoints.dynamoEndpoint,
        }),
        endpoints.tableName,
      ),
    }),
  });
  const { server, credential } = await startBenchServer(entry, endpoints.region).catch(
    async (error: unknown) => {
      await stack.close();
      throw error;
    },
  );
  return {
    entry,
    url: server.url,
    credential,
    region: endpoints.region,
    deps,
    starter,
    close: async () => {
      await server.close();
      await stack.close();
    },
  };
}
