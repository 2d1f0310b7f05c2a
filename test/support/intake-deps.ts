/**
 * The intake's ports for an integration test: the real stores on the file's emulators
 * (incidents, routes, runs, artefacts), a settable clock, and at the outer edge two
 * recorders: the executions started (refusing a repeated start, as Step Functions does by
 * name) and the closes scheduled (a test closes a batch itself when its window ends).
 */
import { capturedMetrics } from './metrics.js';
import { minisearchRetriever } from '../../lambdas/adapters/minisearch-retriever.js';
import { randomBytes } from 'node:crypto';
import { DynamoIncidentStore } from '../../lambdas/adapters/dynamodb/incident-store.js';
import { ItemTable } from '../../lambdas/adapters/dynamodb/item-table.js';
import { DynamoProjectRoutes } from '../../lambdas/adapters/dynamodb/project-routes.js';
import { promptTemplates } from '../../lambdas/adapters/prompt-template-files.js';
import { ExecutionExistsError } from '../../lambdas/core/errors.js';
import type { IntakeDeps } from '../../lambdas/core/intake/deps.js';
import { putProjectRoute } from '../../lambdas/core/projects/project-routes.js';
import type { ProjectRouteBody } from '../../lambdas/core/schemas/project-route.js';
import { newRunId } from '../../lambdas/core/steps/lifecycle.js';
import type { BatchScheduler, ExecutionStarter } from '../../lambdas/ports.js';
import type { EmulatorStores } from './emulator-stores.js';

export interface IntakeHarness {
  deps: IntakeDeps;
  /** The clock the deps read; move it with `at`. */
  at(iso: string): void;
  /** Executions started, `runId#segment`. */
  started: string[];
  /** Closes scheduled, in order. */
  scheduled: { projectId: string; batchId: string; closesAt: string }[];
  /** Saves a route as `ralph projects set` does. */
  route(projectId: string, body: ProjectRouteBody): Promise<void>;
}

export function intakeHarness(
  stores: EmulatorStores,
  options: { scheduler?: BatchScheduler } = {},
): IntakeHarness {
  let now = new Date('2026-11-27T07:00:00Z');
  const clock = { now: () => now };
  const started: string[] = [];
  const scheduled: IntakeHarness['scheduled'] = [];
  const executions: ExecutionStarter = {
    startSegment: async ({ runId, segment }) => {
      const name = `${runId}#${segment}`;
      if (started.includes(name)) throw new ExecutionExistsError(name);
      started.push(name);
      return { executionId: name };
    },
    isRunning: async () => false,
  };
  const { tableName } = stores.emulators;
  const routes = new DynamoProjectRoutes(new ItemTable(stores.dynamo, tableName));
  const deps: IntakeDeps = {
    runs: stores.runs,
    artefacts: stores.artefacts,
    clock,
    templates: promptTemplates(),
    learning: stores.learning,
    retrievers: minisearchRetriever,
    metrics: capturedMetrics().sink,
    executions,
    incidents: new DynamoIncidentStore({ client: stores.dynamo, tableName }),
    routes,
    scheduler: options.scheduler ?? {
      scheduleClose: async (batch) => void scheduled.push(batch),
    },
    newRunId: () => newRunId(now, randomBytes(3).toString('hex')),
    allowLocalRepos: true,
  };
  return {
    deps,
    at: (iso) => void (now = new Date(iso)),
    started,
    scheduled,
    route: async (projectId, body) => {
      await putProjectRoute({ routes, clock, allowLocalRepos: true }, projectId, body);
    },
  };
}
