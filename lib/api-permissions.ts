import { ArnFormat, Stack, Validations } from 'aws-cdk-lib';
import type { Acknowledgment, CfnElement } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';

import { TABLE_KEYS } from '../lambdas/adapters/table-design.js';
import { IDEMPOTENCY_PARTITION, type ApiFunctionGroup } from '../lambdas/api/route-table.js';
import type { Storage } from './storage.js';

/** A run's items (`RUN#<id>`) and the runs index's one partition (`RUNS`): never a project's. */
const RUN_PARTITIONS = ['RUN#*', 'RUNS'];

/**
 * Exactly what each API function's code calls (read from lambdas/core/runs and the adapters
 * it uses), on the keys and prefixes it touches:
 * - `read`: GetItem and Query on run items and the runs index; GET and HEAD of artefacts under
 *   `runs/` (ListBucket under that prefix, so a missing artefact is a 404, not a 403);
 * - `artefact`: GetItem of an iteration; GET of artefacts under `runs/` (the presigned URL
 *   carries this role);
 * - `start`: write (and on a retry re-read) `runs/<id>/request.json`; StartExecution of the
 *   run loop; get, put, update and delete idempotency records on their one partition;
 * - `control`: read and conditionally write run items (cancel may record the iteration a dead
 *   execution left and end the run, writing its summary); StartExecution (resume) and
 *   DescribeExecution (is the run's execution still going?);
 * - `openapi`: nothing.
 */
export function grantApiAccess(
  group: ApiFunctionGroup,
  fn: lambda.IFunction,
  storage: Storage,
  stateMachine: { readonly machine: sfn.IStateMachine; readonly name: string },
): void {
  const table = storage.table.tableArn;
  const index = `${table}/index/${TABLE_KEYS.gsi1.indexName}`;
  const objects = (pattern: string) => `${storage.bucket.bucketArn}/${pattern}`;
  const allow = (actions: string[], resources: string[], conditions?: Record<string, unknown>) =>
    fn.addToRolePolicy(
      new iam.PolicyStatement({ actions, resources, ...(conditions ? { conditions } : {}) }),
    );
  const runItems = { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': RUN_PARTITIONS } };
  const listRuns = () =>
    allow(['s3:ListBucket'], [storage.bucket.bucketArn], {
      StringLike: { 's3:prefix': ['runs/*'] },
    });
  const key = storage.encryptionKey;

  switch (group) {
    case 'read':
      allow(['dynamodb:GetItem', 'dynamodb:Query'], [table, index], runItems);
      allow(['s3:GetObject'], [objects('runs/*')]);
      listRuns();
      key?.grantDecrypt(fn);
      break;
    case 'artefact':
      allow(['dynamodb:GetItem'], [table], runItems);
      allow(['s3:GetObject'], [objects('runs/*')]);
      listRuns();
      key?.grantDecrypt(fn);
      break;
    case 'start':
      allow(['s3:PutObject', 's3:GetObject'], [objects('runs/*/request.json')]);
      allow(['states:StartExecution'], [stateMachine.machine.stateMachineArn]);
      allow(
        ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
        [table],
        { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [IDEMPOTENCY_PARTITION] } },
      );
      key?.grantEncryptDecrypt(fn);
      break;
    case 'control':
      allow(['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem'], [table], runItems);
      allow(['s3:GetObject', 's3:PutObject'], [objects('runs/*')]);
      listRuns();
      allow(['states:StartExecution'], [stateMachine.machine.stateMachineArn]);
      allow(['states:DescribeExecution'], [executionArns(fn, stateMachine.name)]);
      key?.grantEncryptDecrypt(fn);
      break;
    case 'openapi':
      break;
  }
  acknowledgeWildcards(group, fn, storage, stateMachine.name);
}

/** Every execution of the named state machine (DescribeExecution's resource). */
function executionArns(fn: lambda.IFunction, stateMachineName: string): string {
  return Stack.of(fn).formatArn({
    service: 'states',
    resource: 'execution',
    resourceName: `${stateMachineName}:*`,
    arnFormat: ArnFormat.COLON_RESOURCE_NAME,
  });
}

/** The IAM5 findings the prefixes above cause, each with why it is as narrow as S3 allows. */
function acknowledgeWildcards(
  group: ApiFunctionGroup,
  fn: lambda.IFunction,
  storage: Storage,
  stateMachineName: string,
) {
  const stack = Stack.of(fn);
  const bucket = `<${stack.resolve((storage.bucket.node.defaultChild as CfnElement).logicalId)}.Arn>`;
  const findings: Acknowledgment[] = [];
  if (group === 'start')
    findings.push({
      id: `AwsSolutions-IAM5[Resource::${bucket}/runs/*/request.json]`,
      reason:
        'Run ids are made per request, so the one key a start writes (runs/<new id>/request.json) cannot be named in advance; the grant covers only request documents.',
    });
  else if (group !== 'openapi')
    findings.push({
      id: `AwsSolutions-IAM5[Resource::${bucket}/runs/*]`,
      reason:
        "The caller names the run: the function reads (and for control, writes) the artefacts of any run, and only those, under the bucket's runs/ prefix.",
    });
  if (group === 'control')
    findings.push({
      id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:states:<AWS::Region>:<AWS::AccountId>:execution:${stateMachineName}:*]`,
      reason:
        'DescribeExecution takes an execution ARN, named after the run the caller names: the grant covers the executions of the run-loop state machine only.',
    });
  if (storage.encryptionKey)
    findings.push({
      id: 'AwsSolutions-IAM5[Action::kms:GenerateDataKey*]',
      reason: 'Data keys of the one customer-managed key that encrypts the table and bucket.',
    });
  Validations.of(fn).acknowledge(...findings);
}
