import type { CfnElement } from 'aws-cdk-lib';
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { API_ROUTES, type ApiFunctionGroup } from '../../lambdas/api/route-table.js';
import { RunApi, type RunApiProps } from '../../lib/api.js';
import { cdkJsonContext } from '../../lib/ralph-app.js';
import { Storage } from '../../lib/storage.js';
import { nagErrors } from '../support/nag.js';

interface Statement {
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, unknown>>;
}

/** A stack with storage, a stand-in state machine and the API (bundling skipped). */
function build(props: Partial<RunApiProps> = {}) {
  const app = new App({ context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [] } });
  const stack = new Stack(app, 'ApiTest');
  const storage = new Storage(stack, 'Storage');
  const stateMachine = new sfn.StateMachine(stack, 'RunLoop', {
    definitionBody: sfn.DefinitionBody.fromChainable(new sfn.Pass(stack, 'Step')),
    stateMachineName: 'ralph-run-loop',
  });
  const api = new RunApi(stack, 'Api', {
    storage,
    stateMachine,
    stateMachineName: 'ralph-run-loop',
    ...props,
  });
  const logicalId = (construct: IConstruct) =>
    stack.getLogicalId(construct.node.defaultChild as CfnElement);
  return { stack, api, template: Template.fromStack(stack), logicalId };
}

const actionsOf = (statement: Statement) =>
  Array.isArray(statement.Action) ? statement.Action : [statement.Action];

describe('Class: RunApi', () => {
  const { stack, api, template, logicalId } = build();

  /** The statements of the policies attached to a group's function role. */
  function statementsOf(group: ApiFunctionGroup): Statement[] {
    const role = api.functions[group].role!;
    const roleId = stack.getLogicalId(role.node.defaultChild as CfnElement);
    return Object.values(template.findResources('AWS::IAM::Policy'))
      .filter((policy) =>
        (policy.Properties.Roles as { Ref: string }[]).some((ref) => ref.Ref === roleId),
      )
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Statement[]);
  }
  const dataActions = (group: ApiFunctionGroup) =>
    statementsOf(group)
      .flatMap(actionsOf)
      .filter((action) => !action.startsWith('xray:'));

  it('creates one route per entry of the route table, on its group function', () => {
    // Act
    const routes = template.findResources('AWS::ApiGatewayV2::Route');
    const integrations = template.findResources('AWS::ApiGatewayV2::Integration');
    const byKey = new Map(
      Object.values(routes).map((route) => [
        route.Properties.RouteKey as string,
        route.Properties.Target as { 'Fn::Join': [string, unknown[]] },
      ]),
    );

    // Assess
    expect([...byKey.keys()].sort()).toEqual(
      API_ROUTES.map((route) => `${route.method} ${route.path}`).sort(),
    );
    for (const route of API_ROUTES) {
      const target = JSON.stringify(byKey.get(`${route.method} ${route.path}`));
      const integrationId = /"Ref":"([^"]+)"/.exec(target)![1]!;
      const uri = JSON.stringify(integrations[integrationId]!.Properties.IntegrationUri);
      expect(uri).toContain(logicalId(api.functions[route.group]));
      expect(integrations[integrationId]!.Properties.PayloadFormatVersion).toBe('2.0');
    }
  });

  it('authorizes every route with IAM (SigV4) by default', () => {
    const routes = Object.values(template.findResources('AWS::ApiGatewayV2::Route'));
    expect(routes).toHaveLength(API_ROUTES.length);
    for (const route of routes) expect(route.Properties.AuthorizationType).toBe('AWS_IAM');
  });

  it('throttles the stage, POST /runs more tightly, and writes JSON access logs', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 },
      RouteSettings: {
        'POST /runs': { ThrottlingRateLimit: 2, ThrottlingBurstLimit: 10 },
      },
      AccessLogSettings: {
        DestinationArn: Match.anyValue(),
        Format: Match.stringLikeRegexp('"requestId":"\\$context.requestId"'),
      },
    });
    const stage = Object.values(template.findResources('AWS::ApiGatewayV2::Stage'))[0]!;
    const fields = Object.keys(JSON.parse(stage.Properties.AccessLogSettings.Format as string));
    expect(fields).toEqual(
      expect.arrayContaining(['requestId', 'ip', 'caller', 'routeKey', 'status', 'latencyMs']),
    );
  });

  it('sends no CORS headers unless origins are configured', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      CorsConfiguration: Match.absent(),
    });
  });

  it('gives the start function only its request documents, the state machine and the idempotency partition', () => {
    // Act
    const statements = statementsOf('start');
    const dynamo = statements.find((statement) =>
      actionsOf(statement).some((action) => action.startsWith('dynamodb:')),
    )!;

    // Assess
    expect(dataActions('start').sort()).toEqual(
      [
        'dynamodb:DeleteItem',
        'dynamodb:GetItem',
        'dynamodb:PutItem',
        'dynamodb:UpdateItem',
        's3:GetObject',
        's3:PutObject',
        'states:StartExecution',
      ].sort(),
    );
    expect(dynamo.Condition).toEqual({
      'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': ['IDEMPOTENCY#start-run'] },
    });
    expect(JSON.stringify(statements)).toContain('/runs/*/request.json');
  });

  it('lets the read and artefact functions write nothing, and only see run items', () => {
    for (const group of ['read', 'artefact'] as const) {
      const writes = dataActions(group).filter((action) =>
        /:(Put|Update|Delete|BatchWrite|Start|Stop|Abort)/.test(action),
      );
      expect(writes).toEqual([]);
      const dynamo = statementsOf(group).find((statement) =>
        actionsOf(statement).some((action) => action.startsWith('dynamodb:')),
      )!;
      expect(dynamo.Condition).toEqual({
        'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['RUN#*', 'RUNS'] },
      });
    }
    const list = statementsOf('read').find((statement) =>
      actionsOf(statement).includes('s3:ListBucket'),
    )!;
    expect(list.Condition).toEqual({ StringLike: { 's3:prefix': ['runs/*'] } });
  });

  it('lets the control function write run items only, start and describe executions', () => {
    expect(dataActions('control').sort()).toEqual(
      [
        'dynamodb:GetItem',
        'dynamodb:PutItem',
        'dynamodb:Query',
        's3:GetObject',
        's3:ListBucket',
        's3:PutObject',
        'states:DescribeExecution',
        'states:StartExecution',
      ].sort(),
    );
  });

  it('gives the openapi function no data permission at all', () => {
    expect(dataActions('openapi')).toEqual([]);
  });

  it('lets idempotency records expire: the table has a TTL on `expiration`', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      TimeToLiveSpecification: { AttributeName: 'expiration', Enabled: true },
    });
  });

  it('outputs the API URL', () => {
    template.hasOutput('ApiUrl', { Value: Match.anyValue() });
  });

  it('leaves no unacknowledged cdk-nag AwsSolutions errors', () => {
    // The stand-in state machine is not ours: its findings belong to the Orchestration tests.
    expect(nagErrors(api)).toEqual([]);
  });
});

describe('Class: RunApi with a JWT authorizer and CORS', () => {
  const { template } = build({
    jwt: { issuer: 'https://issuer.example.com/', audience: ['ralph-cloud'] },
    corsOrigins: ['https://console.example.com'],
  });

  it('authorizes every route with the JWT authorizer instead of IAM', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      AuthorizerType: 'JWT',
      JwtConfiguration: { Issuer: 'https://issuer.example.com/', Audience: ['ralph-cloud'] },
    });
    const routes = Object.values(template.findResources('AWS::ApiGatewayV2::Route'));
    for (const route of routes) expect(route.Properties.AuthorizationType).toBe('JWT');
  });

  it('allows the configured origins only', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      CorsConfiguration: Match.objectLike({ AllowOrigins: ['https://console.example.com'] }),
    });
  });
});
