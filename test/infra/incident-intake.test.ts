/**
 * The intake of error-triggered runs as deployed: the hook routes without the Run API's
 * IAM authorizer (their function checks the sender's signature or token), the EventBridge
 * rule on alarms going to ALARM, the SNS topic's Lambda subscription, the batch closer
 * waiting out a batch's window, and the senders' secrets readable by the hooks function
 * only; cdk-nag finds nothing unacknowledged.
 */
import type { CfnElement } from 'aws-cdk-lib';
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { cdkJsonContext } from '../../lib/ralph-app.js';
import { RalphStack } from '../../lib/ralph-stack.js';
import { nagErrors } from '../support/nag.js';

const app = new App({ context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [] } });
const stack = new RalphStack(app, 'IntakeTest', {
  hooks: {
    sentrySecretName: 'ralph/sentry',
    newRelicSecretName: 'ralph/newrelic',
    newRelicHeader: 'X-Ralph-Token',
  },
});
const template = Template.fromStack(stack);
const { intake } = stack;
const idOf = (element: { node: { defaultChild?: unknown } }) =>
  stack.getLogicalId(element.node.defaultChild as CfnElement);

interface Statement {
  Action: string | string[];
  Resource: unknown;
}

/** Every statement of every policy attached to `roleId`. */
function statementsOfRole(roleId: string): Statement[] {
  return Object.values(
    template.findResources('AWS::IAM::Policy', {
      Properties: { Roles: Match.arrayWith([{ Ref: roleId }]) },
    }),
  ).flatMap((policy) => policy.Properties.PolicyDocument.Statement as Statement[]);
}
const actionsOf = (statements: Statement[]) =>
  statements.flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));

describe('Class: IncidentIntake', () => {
  it('routes POST /hooks/sentry and /hooks/newrelic to the hooks function without an authorizer; every other route (POST /hooks/cloudwatch too) keeps IAM', () => {
    const routes = template.findResources('AWS::ApiGatewayV2::Route');
    const byKey = Object.fromEntries(
      Object.values(routes).map((route) => [route.Properties.RouteKey, route.Properties]),
    );
    for (const key of ['POST /hooks/sentry', 'POST /hooks/newrelic']) {
      expect(byKey[key]?.AuthorizationType, key).toBe('NONE');
      expect(JSON.stringify(byKey[key]?.Target)).toContain('HooksIntegration');
    }
    const others = Object.entries(byKey).filter(
      ([key]) => key !== 'POST /hooks/sentry' && key !== 'POST /hooks/newrelic',
    );
    expect(others.map(([key]) => key)).toContain('POST /hooks/cloudwatch');
    expect(others.length).toBeGreaterThan(5);
    for (const [key, route] of others)
      expect((route as { AuthorizationType?: string }).AuthorizationType, key).toBe('AWS_IAM');
  });

  it('takes CloudWatch alarms going to ALARM (only) from EventBridge, with retries', () => {
    template.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: {
        source: ['aws.cloudwatch'],
        'detail-type': ['CloudWatch Alarm State Change'],
        detail: { state: { value: ['ALARM'] } },
      },
      Targets: [
        Match.objectLike({
          Arn: { 'Fn::GetAtt': [idOf(intake.alarmFunction), 'Arn'] },
          RetryPolicy: Match.objectLike({ MaximumRetryAttempts: 8 }),
        }),
      ],
    });
  });

  it('subscribes the alarm function to an encrypted, TLS-only alarm intake topic', () => {
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'lambda',
      Endpoint: { 'Fn::GetAtt': [idOf(intake.alarmFunction), 'Arn'] },
      TopicArn: { Ref: idOf(intake.alarmTopic) },
    });
    template.hasResourceProperties('AWS::SNS::Topic', {
      DisplayName: Match.stringLikeRegexp('alarm intake'),
      KmsMasterKeyId: Match.anyValue(),
    });
  });

  it('lets only the hooks function read the senders\u2019 secrets', () => {
    const readers = Object.values(template.findResources('AWS::IAM::Policy'))
      .filter((policy) =>
        (policy.Properties.PolicyDocument.Statement as Statement[]).some(
          (statement) =>
            actionsOf([statement]).includes('secretsmanager:GetSecretValue') &&
            /ralph\/(sentry|newrelic)/.test(JSON.stringify(statement.Resource)),
        ),
      )
      .flatMap((policy) => policy.Properties.Roles as { Ref: string }[]);
    expect(readers).toEqual([{ Ref: idOf(intake.hooksFunction.role!) }]);
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('^POST /hooks/sentry'),
      Environment: {
        Variables: Match.objectLike({
          SENTRY_SECRET_ARN: Match.anyValue(),
          NEWRELIC_SECRET_ARN: Match.anyValue(),
          NEWRELIC_HEADER: 'X-Ralph-Token',
          BATCH_CLOSER_ARN: Match.anyValue(),
        }),
      },
    });
  });

  it('gives the intake functions the intake items, the run submission and the executions they start, and no replay keys to the closer', () => {
    for (const fn of [intake.hooksFunction, intake.alarmFunction, intake.closeBatchFunction]) {
      const statements = statementsOfRole(idOf(fn.role!));
      const actions = actionsOf(statements);
      expect(actions).toContain('states:StartExecution');
      expect(actions).not.toContain('dynamodb:Scan');
      expect(actions).not.toContain('s3:DeleteObject');
      const text = JSON.stringify(statements);
      expect(text).toContain('runs/*/errors/*.json');
      expect(text).toContain('GROUP#*');
      expect(text.includes('DELIVERY#*')).toBe(fn !== intake.closeBatchFunction);
      expect(text.includes('RUN#*')).toBe(fn !== intake.closeBatchFunction);
    }
  });

  it('deploys the batch closer from its ASL file, its task on the close function, traced', () => {
    template.hasResourceProperties('AWS::StepFunctions::StateMachine', {
      StateMachineName: Match.stringLikeRegexp('close-batch$'),
      DefinitionSubstitutions: {
        CloseBatchFunctionArn: { 'Fn::GetAtt': [idOf(intake.closeBatchFunction), 'Arn'] },
      },
      TracingConfiguration: { Enabled: true },
    });
  });

  it('leaves no unacknowledged cdk-nag AwsSolutions errors', () => {
    expect(nagErrors(stack)).toEqual([]);
  });
});
