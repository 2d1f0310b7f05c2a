import type * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { grantAnthropicModels } from './bedrock-access.js';
import { taskAssumedRole } from './task-assumed-role.js';

/** Properties of {@link AgentModelRole}. */
export interface AgentModelRoleProps {
  /** The agent task's role: the only principal that may assume this one (the runner does). */
  readonly taskRole: iam.IRole;
}

/**
 * The agent's model access on Bedrock, in place of an API key: the runner assumes this role
 * before each agent run and hands the agent that session (agent/main.ts,
 * lambdas/adapters/agent-model-session.ts). It may invoke Anthropic models, streaming or
 * not, and nothing else.
 */
export class AgentModelRole extends Construct {
  public readonly role: iam.Role;

  constructor(scope: Construct, id: string, props: AgentModelRoleProps) {
    super(scope, id);
    this.role = taskAssumedRole(
      this,
      'Role',
      props.taskRole,
      "The coding agent's model access: invoke Anthropic models on Bedrock, nothing else",
    );
    grantAnthropicModels(this.role, this.role, [
      'bedrock:InvokeModel',
      'bedrock:InvokeModelWithResponseStream',
    ]);
  }
}
