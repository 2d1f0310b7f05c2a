/**
 * The ports of each Run API function, built once per container from its environment. Each
 * function builds only what its routes use, so it needs (and is granted) nothing else.
 */
import type { ArtefactRouteDeps } from '../api/routes/artefact.js';
import type { StartRouteDeps } from '../api/routes/start.js';
import { idempotencyStore } from '../api/idempotency.js';
import { artefactUrlSigner } from '../adapters/artefact-urls.js';
import {
  createDynamoClient,
  createDynamoDocumentClient,
  createS3Client,
  createSfnClient,
} from '../adapters/aws-clients.js';
import { randomRunId } from '../adapters/run-ids.js';
import { SfnExecutionStarter } from '../adapters/step-functions.js';
import type { SubmitDeps } from '../core/steps/deps.js';
import type { ProjectRouteDeps } from '../core/projects/project-routes.js';
import { ItemTable } from '../adapters/dynamodb/item-table.js';
import { DynamoProjectRoutes } from '../adapters/dynamodb/project-routes.js';
import { systemClock } from '../adapters/clock.js';
import { depsFromEnvironment, required } from './store-environment.js';

/** Start and resume: the loop's ports and the state machine. */
export function submitDepsFromEnvironment(): SubmitDeps {
  return {
    ...depsFromEnvironment(),
    executions: new SfnExecutionStarter(createSfnClient({}), required('STATE_MACHINE_ARN')),
  };
}

export function startDepsFromEnvironment(): StartRouteDeps {
  const deps = submitDepsFromEnvironment();
  return {
    ...deps,
    newRunId: () => randomRunId(deps.clock),
    // A deployment clones into a container: a path on the caller's machine means nothing there.
    allowLocalRepos: false,
    idempotency: idempotencyStore(createDynamoClient({}), required('TABLE_NAME')),
  };
}

export function artefactDepsFromEnvironment(): ArtefactRouteDeps {
  const deps = depsFromEnvironment();
  return {
    ...deps,
    signUrl: artefactUrlSigner(createS3Client({}), required('BUCKET_NAME')),
  };
}

/** The project routes: their items on the table, nothing else. */
export function projectDepsFromEnvironment(): ProjectRouteDeps {
  return {
    routes: new DynamoProjectRoutes(
      new ItemTable(createDynamoDocumentClient({}), required('TABLE_NAME')),
    ),
    clock: systemClock,
    // A deployment clones into a container: a path on the caller's machine means nothing there.
    allowLocalRepos: false,
  };
}
