import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import {
  RUNNER_DENIED_OBJECTS,
  RUNNER_OBJECTS,
  RUNNER_PARTITIONS,
  RUNNER_TABLE_ACTIONS,
} from '../lambdas/adapters/runner-access.js';
import { grantDataAccess } from './data-access.js';
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

    this.role = taskAssumedRole(
      this,
      'Role',
      props.taskRole,
      'The iteration runner; assumed by the agent task with a session policy scoped to one iteration',
    );
    grantDataAccess(
      this.role,
      {
        table: [{ actions: RUNNER_TABLE_ACTIONS, partitions: RUNNER_PARTITIONS }],
        bucket: {
          write: RUNNER_OBJECTS,
          // Without it a GET of a missing plan is 403, not the 404 the runner tells apart.
          mayBeMissing: ['runs/*'],
          why: 'The run and the iteration are only known when a task starts: the runner narrows this to its own with the session policy it assumes the role with (runs/<runId>/iterations/<n>/).',
        },
      },
      storage,
    );
    this.role.addToPolicy(
      new iam.PolicyStatement({
        effect: iam.Effect.DENY,
        actions: ['s3:PutObject'],
        resources: RUNNER_DENIED_OBJECTS.map((pattern) => storage.bucket.arnForObjects(pattern)),
      }),
    );
  }
}
