import { CfnOutput, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpIamAuthorizer, HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { join } from 'node:path';
import {
  API_FUNCTION_GROUPS,
  API_ROUTES,
  type ApiFunctionGroup,
  type ApiRoute,
} from '../lambdas/api/route-table.js';
import { grantApiAccess } from './api-permissions.js';
import type { FunctionOptions } from './function-defaults.js';
import { createNodejsFunction } from './function-defaults.js';
import { HANDLERS_DIR } from './paths.js';
import type { Storage } from './storage.js';

/** Requests per second (steady) and at once (burst), as API Gateway throttles them. */
export interface ApiThrottle {
  readonly rateLimit: number;
  readonly burstLimit: number;
}

/** Properties of {@link RunApi}. */
export interface RunApiProps {
  readonly storage: Storage;
  /** The run-loop state machine: POST /runs and resume start its executions. */
  readonly stateMachine: sfn.IStateMachine;
  /** Its name (cancel and resume describe its executions, whose ARNs are built from it). */
  readonly stateMachineName: string;

  /**
   * Authorize with a JWT (an OIDC issuer and the audiences it signs for) instead of IAM
   * (SigV4). Either way every route is authorized.
   *
   * @default - IAM
   */
  readonly jwt?: { readonly issuer: string; readonly audience: readonly string[] };

  /**
   * Browser origins allowed to call the API (CORS). Without it no CORS headers are sent, so
   * browsers on other origins cannot read answers.
   *
   * @default - no CORS
   */
  readonly corsOrigins?: readonly string[];

  /** @default { rateLimit: 50, burstLimit: 100 } */
  readonly throttle?: ApiThrottle;

  /**
   * POST /runs on its own: each accepted request starts an execution and, soon, containers.
   *
   * @default { rateLimit: 2, burstLimit: 10 }
   */
  readonly startThrottle?: ApiThrottle;

  /** @default - the defaults of `createNodejsFunction` */
  readonly functionOptions?: FunctionOptions;

  /** @default logs.RetentionDays.THREE_MONTHS */
  readonly accessLogRetention?: logs.RetentionDays;

  /** @default RemovalPolicy.RETAIN */
  readonly logRemovalPolicy?: RemovalPolicy;
}

/** What each function is, in words. */
const DESCRIPTIONS: Record<ApiFunctionGroup, string> = {
  start: 'Run API: POST /runs (validate, store the request, start segment 1)',
  read: 'Run API: GET /runs, /runs/{id}, its iterations',
  artefact: 'Run API: GET an artefact (302 to a presigned URL)',
  control: 'Run API: cancel and resume a run',
  openapi: 'Run API: GET /openapi.json',
};

/**
 * The Run API: an HTTP API (API Gateway v2) whose routes are those of
 * `lambdas/api/route-table.ts`, each on the function of its group (`lambdas/handlers/api-<group>.ts`),
 * each function allowed only what its routes do (api-permissions.ts). Every route is
 * authorized (IAM by default, JWT when configured); the stage is throttled (POST /runs more
 * tightly) and writes JSON access logs. Request bodies are limited to 1 MiB by the handlers
 * (`413`): an HTTP API's own limit is a fixed 10 MB.
 */
export class RunApi extends Construct {
  public readonly httpApi: apigwv2.HttpApi;
  /** The API's base URL (the default stage). */
  public readonly url: string;
  public readonly functions: Readonly<Record<ApiFunctionGroup, lambda.IFunction>>;
  public readonly accessLogs: logs.LogGroup;

  constructor(scope: Construct, id: string, props: RunApiProps) {
    super(scope, id);

    this.functions = Object.fromEntries(
      API_FUNCTION_GROUPS.map((group) => [group, this.createFunction(group, props)]),
    ) as Record<ApiFunctionGroup, lambda.IFunction>;

    this.httpApi = new apigwv2.HttpApi(this, 'HttpApi', {
      description: 'ralph-cloud Run API: start, follow, cancel and resume runs',
      createDefaultStage: false,
      defaultAuthorizer: props.jwt
        ? new HttpJwtAuthorizer('JwtAuthorizer', props.jwt.issuer, {
            jwtAudience: [...props.jwt.audience],
          })
        : new HttpIamAuthorizer(),
      ...(props.corsOrigins
        ? {
            corsPreflight: {
              allowOrigins: [...props.corsOrigins],
              allowMethods: [apigwv2.CorsHttpMethod.GET, apigwv2.CorsHttpMethod.POST],
              allowHeaders: [
                'authorization',
                'content-type',
                'idempotency-key',
                'x-amz-date',
                'x-amz-security-token',
              ],
              maxAge: Duration.hours(1),
            },
          }
        : {}),
    });

    const routes = API_ROUTES.map((route: ApiRoute) => this.addRoute(route));

    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: props.accessLogRetention ?? logs.RetentionDays.THREE_MONTHS,
      removalPolicy: props.logRemovalPolicy ?? RemovalPolicy.RETAIN,
    });
    const stage = new apigwv2.HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: props.throttle ?? { rateLimit: 50, burstLimit: 100 },
      accessLogSettings: {
        destination: new apigwv2.LogGroupLogDestination(this.accessLogs),
        format: apigw.AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
      },
    });
    this.throttleStartRoute(stage, routes, props.startThrottle ?? { rateLimit: 2, burstLimit: 10 });
    this.url = stage.url;

    new CfnOutput(Stack.of(this), 'ApiUrl', {
      value: this.url,
      description: 'The Run API (ralph --endpoint, or curl --aws-sigv4)',
    });
  }

  private createFunction(group: ApiFunctionGroup, props: RunApiProps): lambda.IFunction {
    const fn = createNodejsFunction(
      this,
      `${group.charAt(0).toUpperCase()}${group.slice(1)}Function`,
      {
        ...props.functionOptions,
        // API Gateway waits at most 30 s for an integration.
        timeout: Duration.seconds(29),
        entry: join(HANDLERS_DIR, `api-${group}.ts`),
        description: DESCRIPTIONS[group],
        environment:
          group === 'openapi'
            ? {}
            : {
                TABLE_NAME: props.storage.table.tableName,
                BUCKET_NAME: props.storage.bucket.bucketName,
                ...(group === 'start' || group === 'control'
                  ? { STATE_MACHINE_ARN: props.stateMachine.stateMachineArn }
                  : {}),
              },
      },
    );
    grantApiAccess(group, fn, props.storage, {
      machine: props.stateMachine,
      name: props.stateMachineName,
    });
    return fn;
  }

  private addRoute(route: ApiRoute): apigwv2.HttpRoute {
    const [created] = this.httpApi.addRoutes({
      path: route.path,
      methods: [route.method === 'GET' ? apigwv2.HttpMethod.GET : apigwv2.HttpMethod.POST],
      integration: new HttpLambdaIntegration(
        `${route.id}Integration`,
        this.functions[route.group],
        {
          payloadFormatVersion: apigwv2.PayloadFormatVersion.VERSION_2_0,
        },
      ),
    });
    return created!;
  }

  /** POST /runs gets its own, lower, limits (a route setting of the stage). */
  private throttleStartRoute(
    stage: apigwv2.HttpStage,
    routes: readonly apigwv2.HttpRoute[],
    limits: ApiThrottle,
  ): void {
    const cfnStage = stage.node.defaultChild as apigwv2.CfnStage;
    // A JSON map passed to CloudFormation as written: the keys are CloudFormation's.
    cfnStage.routeSettings = {
      'POST /runs': {
        ThrottlingRateLimit: limits.rateLimit,
        ThrottlingBurstLimit: limits.burstLimit,
      },
    };
    // A route setting names a route key that must exist when the stage is updated.
    for (const route of routes) cfnStage.node.addDependency(route);
  }
}

/** One JSON line per request: who called what, how it went, how long it took. */
const ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  time: '$context.requestTime',
  ip: '$context.identity.sourceIp',
  caller: '$context.identity.caller',
  user: '$context.identity.userArn',
  jwtSubject: '$context.authorizer.claims.sub',
  method: '$context.httpMethod',
  routeKey: '$context.routeKey',
  path: '$context.path',
  status: '$context.status',
  responseLength: '$context.responseLength',
  latencyMs: '$context.responseLatency',
  integrationLatencyMs: '$context.integrationLatency',
  integrationError: '$context.integrationErrorMessage',
  authorizerError: '$context.authorizer.error',
};
