import * as iam from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';

/**
 * A role only the agent task's role may assume, and that it may assume: the runner role and
 * the agent model role are both reached this way, so the task role itself holds nothing else.
 */
export function taskAssumedRole(
  scope: Construct,
  id: string,
  taskRole: iam.IRole,
  description: string,
): iam.Role {
  const role = new iam.Role(scope, id, {
    assumedBy: new iam.ArnPrincipal(taskRole.roleArn),
    description,
  });
  taskRole.addToPrincipalPolicy(
    new iam.PolicyStatement({ actions: ['sts:AssumeRole'], resources: [role.roleArn] }),
  );
  return role;
}
