import type { Acknowledgment, CfnElement } from 'aws-cdk-lib';
import { ArnFormat, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { TABLE_KEYS } from '../lambdas/adapters/table-design.js';
import type { ApiFunctionGroup } from '../lambdas/api/route-table.js';
import { IDEMPOTENCY_PARTITION } from '../lambdas/api/route-table.js';
import type { Storage } from './storage.js';

/**
 * The partitions of runs, with their tasks and iterations (`RUN#<runId>`: `runStoreKeys.runPk`
 * in lambdas/adapters/dynamodb/run-items.ts; test/infra/api.test.ts keeps the two in step).
 */
export const RUN_PARTITIONS = 'RUN#*';

/** The keys under which an iteration's artefacts live (`artefactKeys.iteration`). */
const ITERATION_OBJECTS = 'runs/*/iterations/*';

/** What one API function may do on the table. */
interface TableAccess {
  readonly actions: readonly string[];
  /** Also the `gsi1` listing index (runs, newest first). */
  readonly listingIndex?: boolean;
  /** Only items whose partition key matches one of these (`dynamodb:LeadingKeys`). */
  readonly partitions?: readonly string[];
}

/** What one API function may do on the artefact bucket, by key pattern. */
interface BucketAccess {
  readonly read?: readonly string[];
  readonly write?: readonly string[];
  /**
   * `s3:ListBucket` under `runs/`: without it a HEAD or GET of a key that does not exist is
   * answered 403 instead of 404, and the code tells "not written" from "denied" by the 404.
   * S3 evaluates that check with the requested key as `s3:prefix`, so the condition holds.
   */
  readonly notFoundUnderRuns?: boolean;
  /** Why the key patterns hold wildcards, for the cdk-nag acknowledgement. */
  readonly why: string;
}

/** Everything one API function may do besides logging and tracing. */
export interface ApiAccess {
  readonly table?: TableAccess;
  readonly bucket?: BucketAccess;
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
 * - `artefact` (read-runs.artefactKey, adapters/artefact-urls.ts): GetItem of the iteration
 *   and HEAD of its artefacts; the presigned URL it hands out carries this role, so GET too.
 * - `control` (core/runs/control-runs.ts → lifecycle.requestCancel / resumeRun): cancel reads
 *   and saves (conditional PutItem) the run, its tasks and the open iteration (interrupted.ts
 *   → advance.ts with `plan: false`, which reads that iteration's `result.json`), then
 *   end-segment.finalizeRun writes `summary.json` unless it exists; resume starts a segment.
 * - `openapi`: nothing.
 */
export const API_ACCESS: Readonly<Record<ApiFunctionGroup, ApiAccess>> = {
  start: {
    table: {
      actions: [
        'dynamodb:GetItem',
        'dynamodb:PutItem',
        'dynamodb:UpdateItem',
        'dynamodb:DeleteItem',
      ],
      partitions: [IDEMPOTENCY_PARTITION],
    },
    bucket: {
      read: ['runs/*/request.json'],
      write: ['runs/*/request.json'],
      why: 'The start function writes the run request of a run id it draws itself, so the key pattern covers one file name under every run.',
    },
    startsExecutions: true,
  },
  read: {
    table: { actions: ['dynamodb:GetItem', 'dynamodb:Query'], listingIndex: true },
    bucket: {
      read: [ITERATION_OBJECTS, 'runs/*/request.json'],
      notFoundUnderRuns: true,
      why: 'The read function looks up which artefacts an iteration of any run has (HEAD) and reads its evaluation log, and tells a run that is starting (its request.json is stored) from one that does not exist; the patterns cover iteration artefacts and run requests only.',
    },
  },
  artefact: {
    table: { actions: ['dynamodb:GetItem'], partitions: [RUN_PARTITIONS] },
    bucket: {
      read: [ITERATION_OBJECTS],
      notFoundUnderRuns: true,
      why: "The artefact function checks and signs a GET URL for one artefact of any run's iteration; the pattern covers iteration artefacts only.",
    },
  },
  control: {
    table: {
      actions: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem'],
      partitions: [RUN_PARTITIONS],
    },
    bucket: {
      read: ['runs/*/iterations/*/result.json', 'runs/*/summary.json'],
      write: ['runs/*/summary.json'],
      notFoundUnderRuns: true,
      why: "Cancel reads the open iteration's result.json and writes the run's summary.json, for whichever run is cancelled; the patterns name those two files only.",
    },
    startsExecutions: true,
    describesExecutions: true,
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
 * Grants one API function exactly its {@link ApiAccess}, with the customer-managed key when
 * the storage has one, and acknowledges the cdk-nag findings of its key patterns.
 */
export function grantApiAccess(
  fn: lambda.IFunction,
  access: ApiAccess,
  targets: ApiAccessTargets,
): void {
  const { storage } = targets;
  if (access.table) fn.addToRolePolicy(tableStatement(storage, access.table));
  if (access.bucket)
    for (const statement of bucketStatements(storage, access.bucket)) fn.addToRolePolicy(statement);
  if (access.startsExecutions) targets.stateMachine.grantStartExecution(fn);
  if (access.describesExecutions) grantDescribeExecutions(fn, targets.stateMachineName);
  grantKey(fn, access, storage);
  if (access.bucket) Validations.of(fn).acknowledge(...objectFindings(storage, access.bucket));
}

function tableStatement(storage: Storage, table: TableAccess): iam.PolicyStatement {
  return new iam.PolicyStatement({
    actions: [...table.actions],
    resources: [
      storage.table.tableArn,
      ...(table.listingIndex
        ? [`${storage.table.tableArn}/index/${TABLE_KEYS.gsi1.indexName}`]
        : []),
    ],
    ...(table.partitions
      ? {
          conditions: {
            'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...table.partitions] },
          },
        }
      : {}),
  });
}

function bucketStatements(storage: Storage, bucket: BucketAccess): iam.PolicyStatement[] {
  const objects = (patterns: readonly string[]) =>
    patterns.map((key) => storage.bucket.arnForObjects(key));
  return [
    ...(bucket.read
      ? [new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: objects(bucket.read) })]
      : []),
    ...(bucket.write
      ? [new iam.PolicyStatement({ actions: ['s3:PutObject'], resources: objects(bucket.write) })]
      : []),
    ...(bucket.notFoundUnderRuns
      ? [
          new iam.PolicyStatement({
            actions: ['s3:ListBucket'],
            resources: [storage.bucket.bucketArn],
            conditions: { StringLike: { 's3:prefix': ['runs/*'] } },
          }),
        ]
      : []),
  ];
}

/**
 * The customer-managed key, when there is one: Decrypt (and DescribeKey, as the table's
 * own read grant has it) to read the table or the bucket, GenerateDataKey and Encrypt to
 * write an object. The exact actions, where Storage's read-write grant takes CDK's wildcards.
 */
function grantKey(fn: lambda.IFunction, access: ApiAccess, storage: Storage): void {
  const key = storage.encryptionKey;
  if (!key || (!access.table && !access.bucket)) return;
  const writesObjects = (access.bucket?.write?.length ?? 0) > 0;
  key.grant(
    fn,
    'kms:Decrypt',
    'kms:DescribeKey',
    ...(writesObjects ? ['kms:Encrypt', 'kms:GenerateDataKey'] : []),
  );
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

/** The AwsSolutions-IAM5 finding of each object key pattern, with why it is acceptable. */
function objectFindings(storage: Storage, bucket: BucketAccess): Acknowledgment[] {
  const stack = Stack.of(storage);
  const bucketArn = `<${stack.resolve((storage.bucket.node.defaultChild as CfnElement).logicalId)}.Arn>`;
  const patterns = new Set([...(bucket.read ?? []), ...(bucket.write ?? [])]);
  return [...patterns].map((key) => ({
    id: `AwsSolutions-IAM5[Resource::${bucketArn}/${key}]`,
    reason: bucket.why,
  }));
}
