import type { CfnElement } from 'aws-cdk-lib';
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentCluster } from '../../lib/agent-cluster.js';
import type { LoopFunctionSet, LoopStep } from '../../lib/functions.js';
import { LOOP_STEPS, pascalCase } from '../../lib/functions.js';
import { ECS_SYNC_MANAGED_RULE, Orchestration } from '../../lib/orchestration.js';
import { STATE_MACHINES_DIR } from '../../lib/paths.js';
import { cdkJsonContext } from '../../lib/ralph-app.js';
import { Storage } from '../../lib/storage.js';
import type { IConstruct } from 'constructs';
import { nagErrors } from '../support/nag.js';

/** The `${Name}` placeholders of the run-loop definition. */
function placeholdersOfDefinition(): string[] {
  const asl = readFileSync(join(STATE_MACHINES_DIR, 'run-loop.asl.json'), 'utf8');
  return [...new Set([...asl.matchAll(/\$\{(\w+)\}/g)].map((match) => match[1] ?? ''))].sort();
}

describe('Class: Orchestration', () => {
  let outdir: string;
  let stack: Stack;
  let functions: LoopFunctionSet;
  let agent: AgentCluster;
  let orchestration: Orchestration;
  let template: Template;
  const logicalId = (construct: IConstruct): string =>
    stack.getLogicalId(construct.node.defaultChild as CfnElement);

  beforeAll(() => {
    outdir = mkdtempSync(join(tmpdir(), 'ralph-infra-orchestration-'));
    const app = new App({ context: cdkJsonContext(), outdir });
    stack = new Stack(app, 'OrchestrationTest');
    // Stand-in functions and a registry image keep this test free of bundling and
    // image staging; the full-stack test covers the real ones.
    functions = Object.fromEntries(
      LOOP_STEPS.map((step) => [
        step,
        new lambda.Function(stack, pascalCase(step), {
          runtime: lambda.Runtime.NODEJS_22_X,
          handler: 'index.handler',
          code: lambda.Code.fromInline('export const handler = async () => ({});'),
        }),
      ]),
    ) as Record<LoopStep, lambda.Function>;
    agent = new AgentCluster(stack, 'Agent', {
      storage: new Storage(stack, 'Storage'),
      image: ecs.ContainerImage.fromRegistry('public.ecr.aws/docker/library/node:22-slim'),
    });
    orchestration = new Orchestration(stack, 'Orchestration', { functions, agentCluster: agent });
    template = Template.fromStack(stack);
  });

  afterAll(() => {
    rmSync(outdir, { recursive: true, force: true });
  });

  it('substitutes every placeholder of the definition file, and nothing else', () => {
    // Prepare
    const placeholders = placeholdersOfDefinition();

    // Act
    const machine = Object.values(template.findResources('AWS::StepFunctions::StateMachine'))[0];
    const substituted = Object.keys(machine?.Properties.DefinitionSubstitutions ?? {}).sort();

    // Assess
    // One per Lambda step, and the six of the agent's ECS task.
    expect(placeholders).toHaveLength(LOOP_STEPS.length + 6);
    expect(substituted).toEqual(placeholders);
  });

  it('points each Lambda placeholder at its own function', () => {
    // Prepare
    const expected = Object.fromEntries(
      LOOP_STEPS.map((step) => [
        `${pascalCase(step)}FunctionArn`,
        { 'Fn::GetAtt': [logicalId(functions[step]), 'Arn'] },
      ]),
    );

    // Act
    const act = () =>
      template.hasResourceProperties('AWS::StepFunctions::StateMachine', {
        DefinitionSubstitutions: Match.objectLike(expected),
      });

    // Assess
    expect(act).not.toThrow();
  });

  it('points the ECS placeholders at the agent cluster, task definition and network', () => {
    // Prepare
    const expected = {
      AgentClusterArn: { 'Fn::GetAtt': [logicalId(agent.cluster), 'Arn'] },
      AgentTaskDefinitionArn: { Ref: logicalId(agent.taskDefinition) },
      AgentSubnetIds: {
        'Fn::Join': [',', agent.subnets.subnets.map((subnet) => ({ Ref: logicalId(subnet) }))],
      },
      AgentSecurityGroupId: { 'Fn::GetAtt': [logicalId(agent.securityGroup), 'GroupId'] },
      AgentAssignPublicIp: 'ENABLED',
      AgentContainerName: 'agent',
    };

    // Act
    const act = () =>
      template.hasResourceProperties('AWS::StepFunctions::StateMachine', {
        DefinitionSubstitutions: Match.objectLike(expected),
      });

    // Assess
    expect(act).not.toThrow();
  });

  it('is a Standard state machine loaded from the ASL file, with full logging and tracing', () => {
    // Prepare
    const logGroupId = logicalId(orchestration.logGroup);

    // Act
    const act = () =>
      template.hasResourceProperties('AWS::StepFunctions::StateMachine', {
        StateMachineName: 'OrchestrationTest-run-loop',
        StateMachineType: 'STANDARD',
        DefinitionS3Location: Match.objectLike({ Key: Match.stringLikeRegexp('\\.json$') }),
        LoggingConfiguration: {
          Destinations: [
            { CloudWatchLogsLogGroup: { LogGroupArn: { 'Fn::GetAtt': [logGroupId, 'Arn'] } } },
          ],
          IncludeExecutionData: true,
          Level: 'ALL',
        },
        TracingConfiguration: { Enabled: true },
      });

    // Assess
    expect(act).not.toThrow();
    template.hasResourceProperties('AWS::Logs::LogGroup', {
      LogGroupName: '/aws/vendedlogs/states/OrchestrationTest-run-loop',
      RetentionInDays: 30,
    });
  });

  it('lets the state machine invoke exactly the loop functions', () => {
    // Prepare
    const arns = LOOP_STEPS.map((step) => ({ 'Fn::GetAtt': [logicalId(functions[step]), 'Arn'] }));

    // Act
    const act = () =>
      template.hasResourceProperties('AWS::IAM::Policy', {
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({
              Action: 'lambda:InvokeFunction',
              Resource: Match.arrayEquals(arns.sort(byLogicalId)),
            }),
          ]),
        },
      });

    // Assess
    expect(act).not.toThrow();
  });

  it('grants what ecs:runTask.sync needs', () => {
    // Prepare
    const taskRoleId = logicalId(agent.taskDefinition.taskRole);
    const executionRoleId = logicalId(agent.taskDefinition.executionRole!);

    // Act
    const act = () =>
      template.hasResourceProperties('AWS::IAM::Policy', {
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({
              Action: 'ecs:RunTask',
              Resource: { Ref: logicalId(agent.taskDefinition) },
            }),
            Match.objectLike({
              Action: ['ecs:DescribeTasks', 'ecs:StopTask'],
              Resource: {
                'Fn::Join': [
                  '',
                  Match.arrayWith([':task/', { Ref: logicalId(agent.cluster) }, '/*']),
                ],
              },
              Condition: {
                ArnEquals: { 'ecs:cluster': { 'Fn::GetAtt': [logicalId(agent.cluster), 'Arn'] } },
              },
            }),
            Match.objectLike({
              Action: 'iam:PassRole',
              Resource: [
                { 'Fn::GetAtt': [executionRoleId, 'Arn'] },
                { 'Fn::GetAtt': [taskRoleId, 'Arn'] },
              ],
              Condition: { StringEquals: { 'iam:PassedToService': 'ecs-tasks.amazonaws.com' } },
            }),
            Match.objectLike({
              Action: ['events:DescribeRule', 'events:PutRule', 'events:PutTargets'],
              Resource: {
                'Fn::Join': ['', Match.arrayWith([`:rule/${ECS_SYNC_MANAGED_RULE}`])],
              },
            }),
          ]),
        },
      });

    // Assess
    expect(act).not.toThrow();
  });

  it('lets the state machine start its own next segment by name', () => {
    // Act
    const act = () =>
      template.hasResourceProperties('AWS::IAM::Policy', {
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({
              Action: 'states:StartExecution',
              Resource: {
                'Fn::Join': ['', Match.arrayWith([':stateMachine:OrchestrationTest-run-loop'])],
              },
            }),
          ]),
        },
      });

    // Assess
    expect(act).not.toThrow();
  });

  it('alarms on failed, timed-out, aborted and throttled executions', () => {
    // Prepare
    const machineId = logicalId(orchestration.stateMachine);
    const metrics = [
      'ExecutionsFailed',
      'ExecutionsTimedOut',
      'ExecutionsAborted',
      'ExecutionThrottled',
    ];

    // Act
    const alarms = Object.values(
      template.findResources('AWS::CloudWatch::Alarm', {
        Properties: {
          Namespace: 'AWS/States',
          Dimensions: [{ Name: 'StateMachineArn', Value: { Ref: machineId } }],
          Threshold: 1,
          ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        },
      }),
    );

    // Assess
    expect(alarms.map((alarm) => alarm.Properties.MetricName).sort()).toEqual(metrics.sort());
    expect(orchestration.alarms).toHaveLength(4);
  });

  it('leaves no unacknowledged cdk-nag AwsSolutions errors', () => {
    // Act
    const errors = nagErrors(orchestration);

    // Assess
    expect(errors).toEqual([]);
  });
});

function byLogicalId(a: { 'Fn::GetAtt': string[] }, b: { 'Fn::GetAtt': string[] }): number {
  return (a['Fn::GetAtt'][0] ?? '').localeCompare(b['Fn::GetAtt'][0] ?? '');
}
