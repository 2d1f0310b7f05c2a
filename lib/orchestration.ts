import type { CfnElement } from 'aws-cdk-lib';
import { ArnFormat, Duration, Fn, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { join } from 'node:path';
import type { AgentCluster } from './agent-cluster.js';
import type { LoopFunctionSet } from './functions.js';
import { LOOP_STEPS, pascalCase } from './functions.js';
import { STATE_MACHINES_DIR } from './paths.js';

/** The EventBridge managed rule through which Step Functions waits for ECS tasks (.sync). */
export const ECS_SYNC_MANAGED_RULE = 'StepFunctionsGetEventsForECSTaskRule';

/**
 * Properties of {@link Orchestration}.
 */
export interface OrchestrationProps {
  /** The Lambda step of each Task state. */
  readonly functions: LoopFunctionSet;

  /** Where the `RunAgent` state starts the agent container. */
  readonly agentCluster: AgentCluster;

  /**
   * The Amazon States Language file, with `${...}` placeholders for ARNs.
   *
   * @default - statemachines/run-loop.asl.json
   */
  readonly definitionFile?: string;

  /**
   * Name of the state machine. Fixed so that the state machine can be allowed to start
   * its own next segment without a circular reference to its own ARN.
   *
   * @default - `<stack name>-run-loop`
   */
  readonly stateMachineName?: string;

  /**
   * Retention of the execution log group.
   *
   * @default logs.RetentionDays.ONE_MONTH
   */
  readonly logRetention?: logs.RetentionDays;

  /**
   * What happens to the execution log group when the stack is deleted.
   *
   * @default RemovalPolicy.RETAIN
   */
  readonly logRemovalPolicy?: RemovalPolicy;

  /**
   * Actions (for example an SNS topic) triggered when an execution alarm fires.
   *
   * @default - alarms without actions
   */
  readonly alarmActions?: readonly cloudwatch.IAlarmAction[];
}

/**
 * The run-loop state machine (Standard), loaded from its ASL file with every ARN passed
 * in through `definitionSubstitutions`. CDK cannot see inside a file-based definition,
 * so the role's permissions are written here by hand, one statement per integration.
 *
 * Secure defaults as in Solutions Constructs' step-function helper: execution logging
 * (ALL, with data) to a `/aws/vendedlogs/states/` log group, X-Ray tracing, and alarms
 * on failed, timed-out, aborted and throttled executions.
 */
export class Orchestration extends Construct {
  /** The run-loop state machine. */
  public readonly stateMachine: sfn.StateMachine;

  /** Its name, known at synthesis (execution ARNs are built from it). */
  public readonly stateMachineName: string;

  /** Its execution log group. */
  public readonly logGroup: logs.LogGroup;

  /** Alarms on failed, timed-out, aborted and throttled executions. */
  public readonly alarms: readonly cloudwatch.Alarm[];

  constructor(scope: Construct, id: string, props: OrchestrationProps) {
    super(scope, id);

    const stack = Stack.of(this);
    const stateMachineName = props.stateMachineName ?? `${stack.stackName}-run-loop`;
    this.stateMachineName = stateMachineName;
    const agent = props.agentCluster;

    this.logGroup = new logs.LogGroup(this, 'LogGroup', {
      // Step Functions can only deliver to log groups with this prefix without hitting
      // the CloudWatch Logs resource-policy size limit.
      logGroupName: `/aws/vendedlogs/states/${stateMachineName}`,
      retention: props.logRetention ?? logs.RetentionDays.ONE_MONTH,
      removalPolicy: props.logRemovalPolicy ?? RemovalPolicy.RETAIN,
    });

    const functionArns = Object.fromEntries(
      LOOP_STEPS.map((step) => [
        `${pascalCase(step)}FunctionArn`,
        props.functions[step].functionArn,
      ]),
    );

    this.stateMachine = new sfn.StateMachine(this, 'StateMachine', {
      stateMachineName,
      stateMachineType: sfn.StateMachineType.STANDARD,
      definitionBody: sfn.DefinitionBody.fromFile(
        props.definitionFile ?? join(STATE_MACHINES_DIR, 'run-loop.asl.json'),
      ),
      definitionSubstitutions: {
        ...functionArns,
        AgentClusterArn: agent.cluster.clusterArn,
        AgentTaskDefinitionArn: agent.taskDefinition.taskDefinitionArn,
        AgentSubnetIds: Fn.join(',', agent.subnets.subnetIds),
        AgentSecurityGroupId: agent.securityGroup.securityGroupId,
        AgentAssignPublicIp: agent.assignPublicIp ? 'ENABLED' : 'DISABLED',
        AgentContainerName: agent.containerName,
      },
      logs: { destination: this.logGroup, level: sfn.LogLevel.ALL, includeExecutionData: true },
      tracingEnabled: true,
    });

    this.grantIntegrations(props, stateMachineName);
    this.alarms = this.createAlarms(props.alarmActions ?? []);
  }

  private grantIntegrations(props: OrchestrationProps, stateMachineName: string): void {
    const stack = Stack.of(this);
    const role = this.stateMachine.role;
    const agent = props.agentCluster;

    // Task states call the unqualified function ARNs, so no `:*` version wildcard is needed.
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'InvokeLoopFunctions',
        actions: ['lambda:InvokeFunction'],
        resources: LOOP_STEPS.map((step) => props.functions[step].functionArn),
      }),
    );

    // ecs:runTask.sync, as documented for Step Functions' ECS integration.
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'RunAgentTask',
        actions: ['ecs:RunTask'],
        resources: [agent.taskDefinition.taskDefinitionArn],
        conditions: { ArnEquals: { 'ecs:cluster': agent.cluster.clusterArn } },
      }),
    );
    // The task ids are only known at run time: the tasks of the agent cluster, and only those.
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'WatchAgentTask',
        actions: ['ecs:StopTask', 'ecs:DescribeTasks'],
        resources: [
          stack.formatArn({
            service: 'ecs',
            resource: 'task',
            resourceName: `${agent.cluster.clusterName}/*`,
          }),
        ],
        conditions: { ArnEquals: { 'ecs:cluster': agent.cluster.clusterArn } },
      }),
    );
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'PassAgentRoles',
        actions: ['iam:PassRole'],
        resources: [
          agent.taskDefinition.taskRole.roleArn,
          agent.taskDefinition.obtainExecutionRole().roleArn,
        ],
        conditions: { StringEquals: { 'iam:PassedToService': 'ecs-tasks.amazonaws.com' } },
      }),
    );
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'EcsSyncManagedRule',
        actions: ['events:PutTargets', 'events:PutRule', 'events:DescribeRule'],
        resources: [
          stack.formatArn({
            service: 'events',
            resource: 'rule',
            resourceName: ECS_SYNC_MANAGED_RULE,
          }),
        ],
      }),
    );

    // StartNextSegment starts this same state machine; its ARN is built from the name
    // because referencing the resource's own ARN in its role would be circular.
    role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        sid: 'StartNextSegment',
        actions: ['states:StartExecution'],
        resources: [
          stack.formatArn({
            service: 'states',
            resource: 'stateMachine',
            resourceName: stateMachineName,
            arnFormat: ArnFormat.COLON_RESOURCE_NAME,
          }),
        ],
      }),
    );

    this.acknowledgeWildcards(agent);
  }

  /** The cdk-nag findings of the grants above that AWS gives no narrower form for. */
  private acknowledgeWildcards(agent: AgentCluster): void {
    const stack = Stack.of(this);
    const clusterId = stack.resolve((agent.cluster.node.defaultChild as CfnElement).logicalId);
    Validations.of(this.stateMachine).acknowledge(
      {
        id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:ecs:<AWS::Region>:<AWS::AccountId>:task/<${clusterId}>/*]`,
        reason:
          'ecs:StopTask and ecs:DescribeTasks act on task ids only known at run time: the tasks of the agent cluster, by ARN and by the ecs:cluster condition.',
      },
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'The X-Ray and CloudWatch Logs delivery actions CDK adds for tracing and logging support no resource-level permissions.',
      },
    );
  }

  private createAlarms(actions: readonly cloudwatch.IAlarmAction[]): cloudwatch.Alarm[] {
    const period = Duration.minutes(5);
    const metrics: ReadonlyArray<[string, cloudwatch.IMetric, string]> = [
      ['ExecutionsFailed', this.stateMachine.metricFailed({ period }), 'failed'],
      ['ExecutionsTimedOut', this.stateMachine.metricTimedOut({ period }), 'timed out'],
      ['ExecutionsAborted', this.stateMachine.metricAborted({ period }), 'were aborted'],
      ['ExecutionsThrottled', this.stateMachine.metricThrottled({ period }), 'were throttled'],
    ];
    return metrics.map(([id, metric, what]) => {
      const alarm = new cloudwatch.Alarm(this, `${id}Alarm`, {
        metric,
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        alarmDescription: `Run-loop executions ${what} in the last 5 minutes`,
      });
      alarm.addAlarmAction(...actions);
      return alarm;
    });
  }
}
