import type { CfnElement } from 'aws-cdk-lib';
import { Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import {
  RUNNER_DENIED_OBJECTS,
  RUNNER_OBJECT_ACTIONS,
  RUNNER_OBJECTS,
  RUNNER_PARTITIONS,
  RUNNER_TABLE_ACTIONS,
} from '../lambdas/adapters/runner-access.js';
import type { Storage } from './storage.js';
import { taskAssumedRole } from './task-assumed-role.js';

/**
 * Properties of {@link RunnerRole}.
 */
export interface RunnerRoleProps {
  readonly storage: Storage;
  /** The agent task's role: the only principal that may assume this one. */
  readonly taskRole: iam.IRole;
}

/**
 * The role the iteration runner works with. The agent task's own role may do nothing but
 * assume it; the runner assumes it with a session policy naming its run and iteration
 * (lambdas/adapters/run-session.ts), so the session it works with reaches that iteration's
 * items and objects only. This role's own policy is the ceiling of every such session: run
 * items (`RUN#*`), iteration artefacts and progress archives, never the judge's verdicts,
 * and no delete of any kind.
 */
export class RunnerRole extends Construct {
  /** The role. */
  public readonly role: iam.Role;

  constructor(scope: Construct, id: string, props: RunnerRoleProps) {
    super(scope, id);
    const { storage } = props;
    const bucket = storage.bucket;

    this.role = taskAssumedRole(
      this,
      'Role',
      props.taskRole,
      'The iteration runner; assumed by the agent task with a session policy scoped to one iteration',
    );
    this.role.addToPolicy(
      new iam.PolicyStatement({
        actions: [...RUNNER_TABLE_ACTIONS],
        resources: [storage.table.tableArn],
        conditions: {
          'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...RUNNER_PARTITIONS] },
        },
      }),
    );
    this.role.addToPolicy(
      new iam.PolicyStatement({
        actions: [...RUNNER_OBJECT_ACTIONS],
        resources: RUNNER_OBJECTS.map((pattern) => bucket.arnForObjects(pattern)),
      }),
    );
    this.role.addToPolicy(
      new iam.PolicyStatement({
        effect: iam.Effect.DENY,
        actions: ['s3:PutObject'],
        resources: RUNNER_DENIED_OBJECTS.map((pattern) => bucket.arnForObjects(pattern)),
      }),
    );
    // Without it a GET of a missing plan is 403, not the 404 the runner tells apart.
    this.role.addToPolicy(
      new iam.PolicyStatement({
        actions: ['s3:ListBucket'],
        resources: [bucket.bucketArn],
        conditions: { StringLike: { 's3:prefix': ['runs/*'] } },
      }),
    );
    storage.encryptionKey?.grant(
      this.role,
      'kms:Decrypt',
      'kms:DescribeKey',
      'kms:Encrypt',
      'kms:GenerateDataKey',
    );

    const stack = Stack.of(this);
    const bucketArn = `<${stack.resolve((bucket.node.defaultChild as CfnElement).logicalId)}.Arn>`;
    Validations.of(this.role).acknowledge(
      ...RUNNER_OBJECTS.map((pattern) => ({
        id: `AwsSolutions-IAM5[Resource::${bucketArn}/${pattern}]`,
        reason:
          'The run and the iteration are only known when a task starts: the runner narrows this to its own with the session policy it assumes the role with (runs/<runId>/iterations/<n>/).',
      })),
    );
  }
}
