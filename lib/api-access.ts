import { ArnFormat, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type { ApiFunctionGroup } from '../lambdas/api/route-table.js';
import { IDEMPOTENCY_PARTITION } from '../lambdas/api/route-table.js';
import { ROUTE_PARTITIONS } from '../lambdas/adapters/table-design.js';
import { grantDataAccess, PROJECT_SPEND, RUN_PARTITIONS, type DataAccess } from './data-access.js';
import type { Storage } from './storage.js';

/** The keys under which an iteration's artefacts live (`artefactKeys.iteration`). */
const ITERATION_OBJECTS = 'runs/*/iterations/*';

/**
 * The run's own files (RUN_ARTEFACTS in lambdas/core/shared/artefact-keys.ts;
 * test/infra/api.test.ts keeps the two in step).
 */
const RUN_OBJECTS = [
  'request.json',
  'manifest.json',
  'summary.json',
  'convergence-proof.json',
  'investigation-report.json',
  'learning-snapshot.json',
  'learning-report.json',
].map((name) => `runs/*/${name}`);

/** Everything one API function may do besides logging and tracing. */
export interface ApiAccess extends DataAccess {
  /** `states:StartExecution` on the run-loop state machine. */
  readonly startsExecutions?: boolean;
  /**
   * `states:DescribeExecution` on the run loop's executions: is a run's execution still
   * going (a run stored as running whose execution failed is cancelled or resumed at once)?
   */
  readonly describesExecutions?: boolean;
}

/**
 * The permissions of each API function, read from the code its routes run:
 * - `start` (api/routes/start.ts → core/runs/start-run.ts → lifecycle.submitRun, and
 *   api/idempotency.ts): writes `request.json` (S3ArtefactStore.put reads the key back when
 *   it exists, to accept the same bytes), starts segment 1, and keeps Powertools'
 *   idempotency records (Get/Put/Update/DeleteItem) on its own partition only.
 * - `read` (core/runs/read-runs.ts): GetItem and Query on runs, tasks and iterations, Query
 *   on `gsi1` (the run list); HEAD on an iteration's artefacts and GET of its `log.json`;
 *   HEAD on a missing run's `request.json` (submitted and starting, or unknown).
 * - `artefact` (read-runs.artefactKey and verifiedRunArtefactKey, adapters/artefact-urls.ts):
 *   GetItem of the iteration (or the run) and HEAD and GET of its artefacts (or the run's own,
 *   RUN_ARTEFACTS); the presigned URL it hands out carries this role, so GET too.
 * - `control` (core/runs/control-runs.ts → lifecycle.requestCancel / resumeRun): cancel reads
 *   and saves (conditional PutItem) the run, its tasks and the open iteration (interrupted.ts
 *   → advance.ts with `plan: false`, which reads that iteration's `result.json`), then
 *   end-segment.closeRun writes `summary.json` unless it exists (it does not learn: only the FinalizeRun step does); resume starts a segment.
 * - `projects` (core/projects/project-routes.ts → adapters/dynamodb/project-routes.ts): the
 *   route items (GetItem, Query, conditional PutItem and DeleteItem) and their match
 *   pointers; nothing else of the table, nothing of the bucket.
 * - `openapi`: nothing.
 */
export const API_ACCESS: Readonly<Record<ApiFunctionGroup, ApiAccess>> = {
  start: {
    table: [
      {
        actions: [
          'dynamodb:GetItem',
          'dynamodb:PutItem',
          'dynamodb:UpdateItem',
          'dynamodb:DeleteItem',
        ],
        partitions: [IDEMPOTENCY_PARTITION],
      },
    ],
    bucket: {
      read: ['runs/*/request.json'],
      write: ['runs/*/request.json'],
      why: 'The start function writes the run request of a run id it draws itself, so the key pattern covers one file name under every run.',
    },
    startsExecutions: true,
  },
  read: {
    table: [{ actions: ['dynamodb:GetItem', 'dynamodb:Query'], listingIndex: true }],
    bucket: {
      read: [ITERATION_OBJECTS, 'runs/*/request.json'],
      mayBeMissing: ['runs/*'],
      why: 'The read function looks up which artefacts an iteration of any run has (HEAD) and reads its evaluation log, and tells a run that is starting (its request.json is stored) from one that does not exist; the patterns cover iteration artefacts and run requests only.',
    },
  },
  artefact: {
    table: [{ actions: ['dynamodb:GetItem'], partitions: [RUN_PARTITIONS] }],
    bucket: {
      read: [ITERATION_OBJECTS, ...RUN_OBJECTS],
      mayBeMissing: ['runs/*'],
      why: "The artefact function checks and signs a GET URL for one artefact of any run's iteration, or one of a run's own named files; the patterns cover those only.",
    },
  },
  control: {
    table: [
      {
        actions: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem'],
        partitions: [RUN_PARTITIONS],
      },
      // A cancel records the open iteration, and with it what that iteration cost.
      PROJECT_SPEND,
    ],
    bucket: {
      read: ['runs/*/iterations/*/result.json', 'runs/*/summary.json'],
      write: ['runs/*/summary.json'],
      mayBeMissing: ['runs/*'],
      why: "Cancel reads the open iteration's result.json and writes the run's summary.json, for whichever run is cancelled; the patterns name those two files only.",
    },
    startsExecutions: true,
    describesExecutions: true,
  },
  projects: {
    table: [
      {
        actions: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:DeleteItem'],
        partitions: [ROUTE_PARTITIONS.routes, `${ROUTE_PARTITIONS.matchPrefix}*`],
      },
    ],
  },
  openapi: {},
};

/** What {@link grantApiAccess} grants on. */
export interface ApiAccessTargets {
  readonly storage: Storage;
  readonly stateMachine: sfn.IStateMachine;
  /** Its name, known at synthesis: execution ARNs are built from it. */
  readonly stateMachineName: string;
}

/**
 * Grants one API function exactly its {@link ApiAccess}: its data access (data-access.ts)
 * and the run loop's executions it starts or describes.
 */
export function grantApiAccess(
  fn: lambda.IFunction,
  access: ApiAccess,
  targets: ApiAccessTargets,
): void {
  grantDataAccess(fn, access, targets.storage);
  if (access.startsExecutions) targets.stateMachine.grantStartExecution(fn);
  if (access.describesExecutions) grantDescribeExecutions(fn, targets.stateMachineName);
}

/** DescribeExecution on every execution of the named state machine, and why that is narrow. */
function grantDescribeExecutions(fn: lambda.IFunction, stateMachineName: string): void {
  fn.addToRolePolicy(
    new iam.PolicyStatement({
      actions: ['states:DescribeExecution'],
      resources: [
        Stack.of(fn).formatArn({
          service: 'states',
          resource: 'execution',
          resourceName: `${stateMachineName}:*`,
          arnFormat: ArnFormat.COLON_RESOURCE_NAME,
        }),
      ],
    }),
  );
  Validations.of(fn).acknowledge({
    id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:states:<AWS::Region>:<AWS::AccountId>:execution:${stateMachineName}:*]`,
    reason:
      'DescribeExecution takes an execution ARN, named after the run the caller names: the grant covers the executions of the run-loop state machine only.',
  });
}
