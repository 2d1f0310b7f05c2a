import type { CfnElement } from 'aws-cdk-lib';
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { describe, expect, it } from 'vitest';
import { ExecutionWatch } from '../../lib/execution-watch.js';
import { cdkJsonContext } from '../../lib/ralph-app.js';
import { Storage } from '../../lib/storage.js';
import { nagErrors } from '../support/nag.js';

const STATE_MACHINE_ARN = 'arn:aws:states:eu-west-1:123456789012:stateMachine:RalphCloud-run-loop';

describe('Class: ExecutionWatch', () => {
  const app = new App({ context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [] } });
  const stack = new Stack(app, 'WatchTest');
  const storage = new Storage(stack, 'Storage');
  const watch = new ExecutionWatch(stack, 'Watch', {
    storage,
    stateMachine: sfn.StateMachine.fromStateMachineArn(stack, 'RunLoop', STATE_MACHINE_ARN),
    stateMachineName: 'RalphCloud-run-loop',
  });
  const template = Template.fromStack(stack);
  const fnId = stack.getLogicalId(watch.function.node.defaultChild as CfnElement);

  it("sends the run loop's failed, timed-out and stopped executions to the function", () => {
    template.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: {
        source: ['aws.states'],
        'detail-type': ['Step Functions Execution Status Change'],
        detail: {
          status: ['FAILED', 'TIMED_OUT', 'ABORTED'],
          stateMachineArn: [STATE_MACHINE_ARN],
        },
      },
      Targets: [
        Match.objectLike({
          Arn: { 'Fn::GetAtt': [fnId, 'Arn'] },
          RetryPolicy: { MaximumRetryAttempts: 8, MaximumEventAgeInSeconds: 7200 },
        }),
      ],
    });
  });

  it("lets the function touch run items, result.json, summary.json and the project's spend only", () => {
    const role = stack.getLogicalId(watch.function.role!.node.defaultChild as CfnElement);
    const statements = Object.values(
      template.findResources('AWS::IAM::Policy', {
        Properties: { Roles: Match.arrayWith([{ Ref: role }]) },
      }),
    ).flatMap(
      (policy) =>
        policy.Properties.PolicyDocument.Statement as {
          Action: string | string[];
          Condition?: unknown;
        }[],
    );
    const actions = statements
      .flatMap((statement) =>
        Array.isArray(statement.Action) ? statement.Action : [statement.Action],
      )
      .filter((action) => !/^(xray|logs):/.test(action))
      .sort();
    expect(actions).toEqual([
      'dynamodb:GetItem',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
      's3:GetObject',
      's3:ListBucket',
      's3:PutObject',
    ]);
    expect(JSON.stringify(statements)).toContain('"RUN#*"');
  });

  it('leaves no unacknowledged cdk-nag AwsSolutions errors', () => {
    expect(nagErrors(watch)).toEqual([]);
  });
});

describe('The stack: alarms and a missing model', () => {
  it('sends the execution and loop alarms to a topic it outputs, encrypted and TLS only', async () => {
    const { createRalphApp } = await import('../../lib/ralph-app.js');
    const { stack } = createRalphApp({
      context: { 'aws:cdk:bundling-stacks': [] },
      nag: false,
    });
    const template = Template.fromStack(stack);
    const topicId = stack.getLogicalId(stack.alarms.topic.node.defaultChild as CfnElement);

    template.hasOutput('AlarmTopicArn', { Value: { Ref: topicId } });
    template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: Match.anyValue() });
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm'));
    expect(alarms).toHaveLength(stack.orchestration.alarms.length + stack.loopAlarms.alarms.length);
    for (const alarm of alarms) expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topicId }]);
  });
});
