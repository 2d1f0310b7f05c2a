import type { CfnElement } from 'aws-cdk-lib';
import { projectRouteKeys } from '../../lambdas/adapters/dynamodb/project-routes.js';
import { App, Duration, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type { IConstruct } from 'constructs';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStoreKeys } from '../../lambdas/adapters/dynamodb/run-items.js';
import {
  API_FUNCTION_GROUPS,
  API_ROUTES,
  IDEMPOTENCY_PARTITION,
  type ApiFunctionGroup,
} from '../../lambdas/api/route-table.js';
import { RUN_ARTEFACTS } from '../../lambdas/core/shared/artefact-keys.js';
import { RUN_PARTITIONS } from '../../lib/data-access.js';
import type { RunApiProps } from '../../lib/api.js';
import { RunApi } from '../../lib/api.js';
import { HANDLERS_DIR } from '../../lib/paths.js';
import { cdkJsonContext } from '../../lib/ralph-app.js';
import { Storage } from '../../lib/storage.js';
import { nagErrors } from '../support/nag.js';

const STATE_MACHINE_ARN = 'arn:aws:states:eu-west-1:123456789012:stateMachine:RalphCloud-run-loop';
const STATE_MACHINE_NAME = 'RalphCloud-run-loop';

interface Statement {
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, unknown>>;
}

interface Built {
  stack: Stack;
  storage: Storage;
  api: RunApi;
  template: Template;
}

const outdirs: string[] = [];

/**
 * A stack with the storage and the API in front of an imported state machine. Bundling is
 * skipped (the full-stack test bundles for real): these assertions are about configuration.
 */
function buildApi(
  options: Omit<RunApiProps, 'storage' | 'stateMachine' | 'stateMachineName'> & {
    encryptionKey?: boolean;
  } = {},
): Built {
  const outdir = mkdtempSync(join(tmpdir(), 'ralph-infra-api-'));
  outdirs.push(outdir);
  const app = new App({ context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [] }, outdir });
  const stack = new Stack(app, 'ApiTest');
  const { encryptionKey, ...apiOptions } = options;
  const key = encryptionKey ? new kms.Key(stack, 'Key', { enableKeyRotation: true }) : undefined;
  const storage = new Storage(stack, 'Storage', { encryptionKey: key });
  const stateMachine = sfn.StateMachine.fromStateMachineArn(stack, 'RunLoop', STATE_MACHINE_ARN);
  const api = new RunApi(stack, 'Api', {
    ...apiOptions,
    storage,
    stateMachine,
    stateMachineName: STATE_MACHINE_NAME,
  });
  return { stack, storage, api, template: Template.fromStack(stack) };
}

const logicalId = (stack: Stack, construct: IConstruct): string =>
  stack.getLogicalId(construct.node.defaultChild as CfnElement);

/** Every statement of the policies attached to a function's role, X-Ray's aside. */
function statementsOf(built: Built, group: ApiFunctionGroup): Statement[] {
  const role = built.api.functions[group].role!;
  const policies = built.template.findResources('AWS::IAM::Policy', {
    Properties: { Roles: Match.arrayWith([{ Ref: logicalId(built.stack, role) }]) },
  });
  return Object.values(policies)
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement as Statement[])
    .filter((statement) => !actionsOf([statement]).every((action) => /^(xray|logs):/.test(action)));
}

function actionsOf(statements: Statement[]): string[] {
  return statements.flatMap((statement) => [statement.Action].flat()).sort();
}

const WRITE_ACTIONS = /^(dynamodb:(Put|Update|Delete|BatchWrite)|s3:(Put|Delete)|states:)/;

afterAll(() => {
  for (const outdir of outdirs) rmSync(outdir, { recursive: true, force: true });
});

describe('Class: RunApi', () => {
  describe('with defaults', () => {
    let built: Built;

    beforeAll(() => {
      built = buildApi();
    });

    it('builds one function per group from its handler module', () => {
      // Act
      const fns = built.template.findResources('AWS::Lambda::Function');

      // Assess
      expect(Object.keys(fns)).toHaveLength(API_FUNCTION_GROUPS.length);
      for (const group of API_FUNCTION_GROUPS)
        expect(existsSync(join(HANDLERS_DIR, `api-${group}.ts`))).toBe(true);
    });

    it("routes every entry of API_ROUTES to its group's function, payload format 2.0", () => {
      // Prepare
      const { stack, api, template } = built;
      const routes = Object.values(template.findResources('AWS::ApiGatewayV2::Route'));
      const integrations = template.findResources('AWS::ApiGatewayV2::Integration');

      // Act
      const served = routes.map((route) => {
        const integrationId = route.Properties.Target['Fn::Join'][1][1].Ref as string;
        const integration = integrations[integrationId]!.Properties;
        expect(integration).toMatchObject({
          IntegrationType: 'AWS_PROXY',
          PayloadFormatVersion: '2.0',
        });
        return [route.Properties.RouteKey, integration.IntegrationUri['Fn::GetAtt'][0]];
      });

      // Assess
      expect(Object.fromEntries(served)).toEqual(
        Object.fromEntries(
          API_ROUTES.map((route) => [
            `${route.method} ${route.path}`,
            logicalId(stack, api.functions[route.group]),
          ]),
        ),
      );
    });

    it('passes each function only the environment its handler reads', () => {
      // Prepare
      const { stack, storage, api, template } = built;
      const variablesOf = (group: ApiFunctionGroup) =>
        template.toJSON().Resources[logicalId(stack, api.functions[group])].Properties.Environment
          .Variables;
      const stores = {
        TABLE_NAME: { Ref: logicalId(stack, storage.table) },
        BUCKET_NAME: { Ref: logicalId(stack, storage.bucket) },
      };

      // Act
      const variables = Object.fromEntries(API_FUNCTION_GROUPS.map((g) => [g, variablesOf(g)]));

      // Assess
      expect(variables.start).toMatchObject({ ...stores, STATE_MACHINE_ARN });
      expect(variables.control).toMatchObject({ ...stores, STATE_MACHINE_ARN });
      expect(variables.read).toMatchObject(stores);
      expect(variables.read.STATE_MACHINE_ARN).toBeUndefined();
      expect(variables.artefact).toMatchObject(stores);
      expect(variables.openapi.TABLE_NAME).toBeUndefined();
      expect(variables.openapi.BUCKET_NAME).toBeUndefined();
    });

    it('stops every function before API Gateway gives up on it (30 s)', () => {
      // Act
      const fns = Object.values(built.template.findResources('AWS::Lambda::Function'));

      // Assess
      for (const fn of fns) expect(fn.Properties.Timeout).toBe(29);
    });

    it('authorizes every route with IAM (SigV4), /openapi.json included', () => {
      // Act
      const routes = Object.values(built.template.findResources('AWS::ApiGatewayV2::Route'));

      // Assess
      expect(routes).toHaveLength(API_ROUTES.length);
      for (const route of routes) expect(route.Properties.AuthorizationType).toBe('AWS_IAM');
      built.template.resourceCountIs('AWS::ApiGatewayV2::Authorizer', 0);
    });

    it('throttles the stage, and POST /runs lower', () => {
      // Act
      const act = () =>
        built.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
          StageName: '$default',
          AutoDeploy: true,
          DefaultRouteSettings: { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 },
          RouteSettings: { 'POST /runs': { ThrottlingRateLimit: 5, ThrottlingBurstLimit: 10 } },
        });

      // Assess
      expect(act).not.toThrow();
    });

    it('deploys the stage after the route its settings name', () => {
      // Prepare
      const { stack, api, template } = built;

      // Act
      const stage = template.toJSON().Resources[logicalId(stack, api.stage)];

      // Assess
      expect(stage.DependsOn).toContain(logicalId(stack, api.routes.startRun));
    });

    it('writes JSON access logs to a log group with a retention', () => {
      // Prepare
      const { stack, api, template } = built;
      const stage = template.toJSON().Resources[logicalId(stack, api.stage)].Properties;

      // Act
      const format = JSON.parse(stage.AccessLogSettings.Format as string) as Record<string, string>;

      // Assess
      expect(stage.AccessLogSettings.DestinationArn).toEqual({
        'Fn::GetAtt': [logicalId(stack, api.accessLogGroup), 'Arn'],
      });
      expect(Object.keys(format)).toEqual([
        'requestId',
        'ip',
        'caller',
        'method',
        'routeKey',
        'status',
        'responseLength',
        'integrationError',
        'latency',
      ]);
      expect(format).toMatchObject({
        requestId: '$context.requestId',
        caller: '$context.identity.userArn',
        routeKey: '$context.routeKey',
      });
      template.hasResource('AWS::Logs::LogGroup', {
        Properties: { RetentionInDays: 30 },
        DeletionPolicy: 'Retain',
      });
    });

    it('configures no CORS', () => {
      // Act
      const act = () =>
        built.template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
          CorsConfiguration: Match.absent(),
        });

      // Assess
      expect(act).not.toThrow();
    });

    it('lets the start function write only the idempotency partition of the table', () => {
      // Act
      const statements = statementsOf(built, 'start');
      const onTable = statements.filter((s) =>
        actionsOf([s]).some((a) => a.startsWith('dynamodb:')),
      );

      // Assess
      expect(actionsOf(statements)).toEqual([
        'dynamodb:DeleteItem',
        'dynamodb:GetItem',
        'dynamodb:PutItem',
        'dynamodb:UpdateItem',
        's3:GetObject',
        's3:PutObject',
        'states:StartExecution',
      ]);
      expect(onTable.length).toBeGreaterThan(0);
      for (const statement of onTable)
        expect(statement.Condition).toEqual({
          'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [IDEMPOTENCY_PARTITION] },
        });
      expect(JSON.stringify(statements)).toContain('/runs/*/request.json');
      expect(statements.find((s) => s.Action === 'states:StartExecution')?.Resource).toBe(
        STATE_MACHINE_ARN,
      );
    });

    it('gives the read function no write action at all', () => {
      // Act
      const actions = actionsOf(statementsOf(built, 'read'));

      // Assess
      expect(actions).toEqual([
        'dynamodb:GetItem',
        'dynamodb:Query',
        's3:GetObject',
        's3:ListBucket',
      ]);
      expect(actions.filter((action) => WRITE_ACTIONS.test(action))).toEqual([]);
    });

    it('lets a function that looks up artefacts list only under runs/, to tell 404 from 403', () => {
      // Act
      const listing = (['read', 'artefact', 'control'] as const).map((group) =>
        statementsOf(built, group).find((s) => s.Action === 's3:ListBucket'),
      );

      // Assess
      for (const statement of listing)
        expect(statement?.Condition).toEqual({ StringLike: { 's3:prefix': ['runs/*'] } });
    });

    it("gives the artefact function reads of run items, iteration artefacts and a run's own files only", () => {
      // Act
      const statements = statementsOf(built, 'artefact');
      const gets = JSON.stringify(statements.find((s) => s.Action === 's3:GetObject')?.Resource);

      // Assess
      expect(actionsOf(statements)).toEqual(['dynamodb:GetItem', 's3:GetObject', 's3:ListBucket']);
      for (const pattern of ['iterations/*', ...RUN_ARTEFACTS])
        expect(gets).toContain(`/runs/*/${pattern}"`);
      expect(gets).not.toContain('/runs/*"');
      expect(statements[0]?.Condition).toEqual({
        'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [RUN_PARTITIONS] },
      });
    });

    it('lets the control function write run items and summary.json, start executions and see whether they go on', () => {
      // Act
      const statements = statementsOf(built, 'control');
      const puts = statements.find((s) => s.Action === 's3:PutObject');
      const describe = statements.find((s) => s.Action === 'states:DescribeExecution');

      // Assess
      expect(actionsOf(statements)).toEqual([
        'dynamodb:GetItem',
        'dynamodb:GetItem',
        'dynamodb:PutItem',
        'dynamodb:Query',
        'dynamodb:UpdateItem',
        's3:GetObject',
        's3:ListBucket',
        's3:PutObject',
        'states:DescribeExecution',
        'states:StartExecution',
      ]);
      const spend = statements.find((s) => JSON.stringify(s.Action).includes('UpdateItem'));
      expect(spend?.Condition).toEqual({
        'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['PROJECT#*'] },
      });
      expect(JSON.stringify(puts?.Resource)).toContain('/runs/*/summary.json');
      expect(JSON.stringify(describe?.Resource)).toContain(`:execution:${STATE_MACHINE_NAME}:*`);
      expect(JSON.stringify(statements)).toContain(`"${RUN_PARTITIONS}"`);
    });

    it('lets the projects function touch route items and their match pointers only, nothing of the bucket', () => {
      // Act
      const statements = statementsOf(built, 'projects');

      // Assess
      expect(actionsOf(statements)).toEqual([
        'dynamodb:DeleteItem',
        'dynamodb:GetItem',
        'dynamodb:PutItem',
        'dynamodb:Query',
      ]);
      expect(statements[0]?.Condition).toEqual({
        'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['ROUTES', 'ROUTEMATCH#*'] },
      });
      expect(
        [
          projectRouteKeys.routesPk,
          projectRouteKeys.matchPk({ kind: 'sentry-project', key: 'shop' }),
        ].every((pk) => pk === 'ROUTES' || pk.startsWith('ROUTEMATCH#')),
      ).toBe(true);
    });

    it('names the run partitions as the run store keys them', () => {
      // Act
      const key = runStoreKeys.runPk('r20260101-000000-abcdef');

      // Assess
      expect(key.startsWith(RUN_PARTITIONS.replace('*', ''))).toBe(true);
    });

    it('gives the OpenAPI function no data permission', () => {
      // Act
      const statements = statementsOf(built, 'openapi');

      // Assess
      expect(statements).toEqual([]);
    });

    it('exposes the URL of its default stage', () => {
      // Act
      const url = built.stack.resolve(built.api.url) as { 'Fn::Join': [string, unknown[]] };

      // Assess
      expect(url['Fn::Join'][1]).toContainEqual({ Ref: logicalId(built.stack, built.api.httpApi) });
    });

    it('leaves no unacknowledged cdk-nag AwsSolutions errors', () => {
      // Act
      const errors = nagErrors(built.stack);

      // Assess
      expect(errors).toEqual([]);
    });
  });

  describe('with a JWT issuer, CORS origins and its own throttling', () => {
    let built: Built;
    const jwt = { issuer: 'https://issuer.example.com/', audience: ['ralph-cli'] };

    beforeAll(() => {
      built = buildApi({
        jwt,
        cors: ['https://console.example.com'],
        throttle: {
          stage: { rateLimit: 20, burstLimit: 40 },
          startRun: { rateLimit: 1, burstLimit: 2 },
        },
      });
    });

    it('authorizes every route with the JWT authorizer instead of IAM', () => {
      // Prepare
      const authorizers = built.template.findResources('AWS::ApiGatewayV2::Authorizer');
      const [authorizerId] = Object.keys(authorizers);

      // Act
      const routes = Object.values(built.template.findResources('AWS::ApiGatewayV2::Route'));

      // Assess
      expect(Object.keys(authorizers)).toHaveLength(1);
      expect(authorizers[authorizerId!]!.Properties).toMatchObject({
        AuthorizerType: 'JWT',
        IdentitySource: ['$request.header.Authorization'],
        JwtConfiguration: { Issuer: jwt.issuer, Audience: jwt.audience },
      });
      expect(routes).toHaveLength(API_ROUTES.length);
      for (const route of routes)
        expect(route.Properties).toMatchObject({
          AuthorizationType: 'JWT',
          AuthorizerId: { Ref: authorizerId },
        });
    });

    it("logs the token's subject as the caller", () => {
      // Act
      const stage = Object.values(built.template.findResources('AWS::ApiGatewayV2::Stage'))[0]!;

      // Assess
      expect(JSON.parse(stage.Properties.AccessLogSettings.Format as string)).toMatchObject({
        caller: '$context.authorizer.claims.sub',
      });
    });

    it('answers CORS preflights for the origins given', () => {
      // Act
      const act = () =>
        built.template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
          CorsConfiguration: Match.objectLike({
            AllowOrigins: ['https://console.example.com'],
            AllowMethods: ['GET', 'POST', 'PUT', 'DELETE'],
            AllowHeaders: Match.arrayWith(['authorization', 'idempotency-key']),
          }),
        });

      // Assess
      expect(act).not.toThrow();
    });

    it('applies the throttling given', () => {
      // Act
      const act = () =>
        built.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
          DefaultRouteSettings: { ThrottlingRateLimit: 20, ThrottlingBurstLimit: 40 },
          RouteSettings: { 'POST /runs': { ThrottlingRateLimit: 1, ThrottlingBurstLimit: 2 } },
        });

      // Assess
      expect(act).not.toThrow();
    });

    it('leaves no unacknowledged cdk-nag AwsSolutions errors', () => {
      expect(nagErrors(built.stack)).toEqual([]);
    });
  });

  describe('with a customer-managed key', () => {
    let built: Built;

    beforeAll(() => {
      built = buildApi({ encryptionKey: true });
    });

    it('lets readers decrypt, and writers of objects also encrypt, with that key', () => {
      // Act
      const kmsActions = (group: ApiFunctionGroup) =>
        actionsOf(statementsOf(built, group)).filter((action) => action.startsWith('kms:'));

      // Assess
      expect(kmsActions('read')).toEqual(['kms:Decrypt', 'kms:DescribeKey']);
      expect(kmsActions('artefact')).toEqual(['kms:Decrypt', 'kms:DescribeKey']);
      for (const group of ['start', 'control'] as const)
        expect(kmsActions(group)).toEqual([
          'kms:Decrypt',
          'kms:DescribeKey',
          'kms:Encrypt',
          'kms:GenerateDataKey',
        ]);
      expect(kmsActions('openapi')).toEqual([]);
    });

    it('leaves no unacknowledged cdk-nag AwsSolutions errors', () => {
      expect(nagErrors(built.stack)).toEqual([]);
    });
  });

  describe('refusing clashing inputs', () => {
    it.each([
      [
        'a JWT issuer without an audience',
        { jwt: { issuer: 'https://i.example.com/', audience: [] } },
      ],
      ['an empty list of CORS origins', { cors: [] }],
    ])('refuses %s', (_, options) => {
      // Act
      const act = () => buildApi(options);

      // Assess
      expect(act).toThrow(/RunApi/);
    });

    it("refuses a function timeout that outlives API Gateway's", () => {
      // Act
      const act = () => buildApi({ functionOptions: { timeout: Duration.seconds(45) } });

      // Assess
      expect(act).toThrow(/30-second/);
    });
  });
});
