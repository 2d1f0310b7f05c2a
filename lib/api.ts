import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpIamAuthorizer, HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { join } from 'node:path';
import type { ApiFunctionGroup, ApiRouteId } from '../lambdas/api/route-table.js';
import { API_FUNCTION_GROUPS, API_ROUTES, routesOf } from '../lambdas/api/route-table.js';
import { API_ACCESS, grantApiAccess } from './api-access.js';
import type { FunctionOptions } from './function-defaults.js';
import { createNodejsFunction } from './function-defaults.js';
import { HANDLERS_DIR } from './paths.js';
import type { Storage } from './storage.js';

/** An OIDC issuer whose tokens the API accepts instead of SigV4. */
export interface RunApiJwt {
  /** The issuer URL (`iss`), e.g. `https://cognito-idp.eu-west-1.amazonaws.com/<pool id>`. */
  readonly issuer: string;
  /** Accepted audiences (`aud`, or `client_id` for Cognito access tokens); at least one. */
  readonly audience: readonly string[];
}

/** Requests per second, steady (`rateLimit`) and in a burst (`burstLimit`). */
export interface RunApiThrottle {
  /**
   * Every route of the stage.
   *
   * @default { rateLimit: 50, burstLimit: 100 }
   */
  readonly stage?: apigwv2.ThrottleSettings;

  /**
   * POST /runs, lower: each start costs an execution and agent containers.
   *
   * @default { rateLimit: 5, burstLimit: 10 }
   */
  readonly startRun?: apigwv2.ThrottleSettings;
}

/** The choices a deployment makes about its API (`RalphStackProps.api`). */
export interface RunApiOptions {
  /**
   * Accept JWTs from this OIDC issuer on every route instead of IAM (SigV4) authorization.
   *
   * @default - IAM authorization on every route
   */
  readonly jwt?: RunApiJwt;

  /**
   * Origins allowed to call the API from a browser (CORS preflight answered by API Gateway).
   *
   * @default - no CORS configuration: browsers on other origins are refused
   */
  readonly cors?: readonly string[];

  /**
   * Stage and POST /runs throttling.
   *
   * @default - see {@link RunApiThrottle}
   */
  readonly throttle?: RunApiThrottle;
}

/**
 * Properties of {@link RunApi}.
 */
export interface RunApiProps extends RunApiOptions {
  /** The run table and artefact bucket the handlers read and write. */
  readonly storage: Storage;

  /** The run-loop state machine's name (cancel and resume describe its executions). */
  readonly stateMachineName: string;

  /** The run-loop state machine that POST /runs and resume start. */
  readonly stateMachine: sfn.IStateMachine;

  /**
   * Retention of the access-log group.
   *
   * @default logs.RetentionDays.ONE_MONTH
   */
  readonly accessLogRetention?: logs.RetentionDays;

  /**
   * Options of every API function, and the removal policy of every log group.
   *
   * @default - the defaults of `createNodejsFunction`, with a 29-second timeout
   */
  readonly functionOptions?: FunctionOptions;
}

/** Stage throttling when none is given. */
export const DEFAULT_STAGE_THROTTLE = { rateLimit: 50, burstLimit: 100 } as const;

/** POST /runs throttling when none is given. */
export const DEFAULT_START_RUN_THROTTLE = { rateLimit: 5, burstLimit: 10 } as const;

/**
 * API Gateway gives up on an integration after 30 seconds; the function stops first, so
 * its own timeout (and the handler's abort signal) decides what the caller gets.
 */
export const API_FUNCTION_TIMEOUT = Duration.seconds(29);

/**
 * One JSON object per request. `caller` is the signing principal (IAM) or the token's
 * subject (JWT), the identity the handlers key idempotency records on.
 */
export function accessLogFormat(jwt: boolean): AccessLogFormat {
  return AccessLogFormat.custom(
    JSON.stringify({
      requestId: '$context.requestId',
      ip: '$context.identity.sourceIp',
      caller: jwt ? '$context.authorizer.claims.sub' : '$context.identity.userArn',
      method: '$context.httpMethod',
      routeKey: '$context.routeKey',
      status: '$context.status',
      responseLength: '$context.responseLength',
      integrationError: '$context.integrationErrorMessage',
      latency: '$context.responseLatency',
    }),
  );
}

const DESCRIPTIONS: Readonly<Record<ApiFunctionGroup, string>> = {
  start: 'Run API: POST /runs (store the request, start segment 1)',
  read: 'Run API: GET /runs, /runs/{id}, its iterations',
  artefact: 'Run API: redirect to a presigned URL of one iteration artefact',
  control: 'Run API: cancel and resume a run',
  projects: 'Run API: GET, PUT and DELETE /projects/{projectId} (project routes)',
  openapi: 'Run API: GET /openapi.json',
};

/**
 * The Run API: an API Gateway HTTP API with one route per entry of `API_ROUTES`, each on
 * the Lambda function of its group (`lambdas/handlers/api-<group>.ts`, payload format
 * 2.0), so a route cannot be served without being deployed.
 *
 * Secure defaults: IAM (SigV4) authorization on every route, `/openapi.json` included, or a
 * JWT authorizer on every route instead; stage throttling with POST /runs lower; JSON
 * access logs with a retention; no CORS unless origins are given; each function granted
 * only what its routes call (lib/api-access.ts). The body limit (1 MiB, `413`) is enforced
 * by the handler (`API_BODY_LIMIT_BYTES`): an HTTP API's own limit is a fixed 10 MB.
 *
 * @example
 * const api = new RunApi(this, 'Api', { storage, stateMachine: orchestration.stateMachine });
 * new CfnOutput(this, 'ApiUrl', { value: api.url });
 */
export class RunApi extends Construct {
  /** The HTTP API. */
  public readonly httpApi: apigwv2.HttpApi;

  /** Its `$default` stage (throttling, access logs). */
  public readonly stage: apigwv2.HttpStage;

  /** The base URL, `https://<api id>.execute-api.<region>.<suffix>/`. */
  public readonly url: string;

  /** One function per group of routes. */
  public readonly functions: Readonly<Record<ApiFunctionGroup, NodejsFunction>>;

  /** One route per entry of `API_ROUTES`, by route id. */
  public readonly routes: Readonly<Record<ApiRouteId, apigwv2.HttpRoute>>;

  /** Where the stage writes its access logs. */
  public readonly accessLogGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: RunApiProps) {
    super(scope, id);
    checkProps(props);

    this.functions = buildFunctions(this, props);
    this.httpApi = new apigwv2.HttpApi(this, 'HttpApi', {
      apiName: `${Stack.of(this).stackName}-run-api`,
      description: 'ralph-cloud Run API: start, follow, cancel and resume runs',
      createDefaultStage: false,
      defaultAuthorizer: props.jwt
        ? new HttpJwtAuthorizer('JwtAuthorizer', props.jwt.issuer, {
            jwtAudience: [...props.jwt.audience],
          })
        : new HttpIamAuthorizer(),
      ...(props.cors ? { corsPreflight: corsOf(props.cors) } : {}),
    });
    this.routes = this.createRoutes();

    this.accessLogGroup = new logs.LogGroup(this, 'AccessLogs', {
      retention: props.accessLogRetention ?? logs.RetentionDays.ONE_MONTH,
      removalPolicy: props.functionOptions?.logRemovalPolicy ?? RemovalPolicy.RETAIN,
    });
    this.stage = new apigwv2.HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      autoDeploy: true,
      throttle: props.throttle?.stage ?? DEFAULT_STAGE_THROTTLE,
      accessLogSettings: {
        destination: new apigwv2.LogGroupLogDestination(this.accessLogGroup),
        format: accessLogFormat(props.jwt !== undefined),
      },
    });
    this.throttleStartRoutes(props.throttle?.startRun ?? DEFAULT_START_RUN_THROTTLE);
    this.url = this.stage.url;
  }

  private createRoutes(): Record<ApiRouteId, apigwv2.HttpRoute> {
    const integrations = Object.fromEntries(
      API_FUNCTION_GROUPS.map((group) => [
        group,
        new HttpLambdaIntegration(`${pascal(group)}Integration`, this.functions[group], {
          payloadFormatVersion: apigwv2.PayloadFormatVersion.VERSION_2_0,
        }),
      ]),
    ) as Record<ApiFunctionGroup, HttpLambdaIntegration>;
    // The API's default authorizer applies to every route; none is created without one.
    const routes = API_ROUTES.map(
      (route) =>
        [
          route.id,
          new apigwv2.HttpRoute(this, `${pascal(route.id)}Route`, {
            httpApi: this.httpApi,
            routeKey: apigwv2.HttpRouteKey.with(route.path, apigwv2.HttpMethod[route.method]),
            integration: integrations[route.group],
          }),
        ] as const,
    );
    return Object.fromEntries(routes) as Record<ApiRouteId, apigwv2.HttpRoute>;
  }

  /**
   * Route-level throttling of the `start` routes. The L2 stage has no route settings, so
   * they are set on the CfnStage (untyped JSON, hence CloudFormation's own PascalCase
   * names), which must then be deployed after those routes exist.
   */
  private throttleStartRoutes(throttle: apigwv2.ThrottleSettings): void {
    const cfnStage = this.stage.node.defaultChild as apigwv2.CfnStage;
    const startRoutes = routesOf('start');
    cfnStage.routeSettings = Object.fromEntries(
      startRoutes.map((route) => [
        `${route.method} ${route.path}`,
        { ThrottlingRateLimit: throttle.rateLimit, ThrottlingBurstLimit: throttle.burstLimit },
      ]),
    );
    for (const route of startRoutes)
      this.stage.node.addDependency(this.routes[route.id as ApiRouteId]);
  }
}

/** One function per group, with the environment its handler reads and its grants. */
function buildFunctions(
  scope: Construct,
  props: RunApiProps,
): Record<ApiFunctionGroup, NodejsFunction> {
  const { storage, stateMachine, stateMachineName } = props;
  const build = (group: ApiFunctionGroup): NodejsFunction => {
    const access = API_ACCESS[group];
    const usesStorage = access.table !== undefined || access.bucket !== undefined;
    const fn = createNodejsFunction(scope, pascal(group), {
      ...props.functionOptions,
      timeout: props.functionOptions?.timeout ?? API_FUNCTION_TIMEOUT,
      entry: join(HANDLERS_DIR, `api-${group}.ts`),
      description: DESCRIPTIONS[group],
      // The names lambdas/handlers/environment.ts and api-environment.ts read.
      environment: {
        ...(usesStorage
          ? { TABLE_NAME: storage.table.tableName, BUCKET_NAME: storage.bucket.bucketName }
          : {}),
        ...(access.startsExecutions ? { STATE_MACHINE_ARN: stateMachine.stateMachineArn } : {}),
      },
    });
    grantApiAccess(fn, access, { storage, stateMachine, stateMachineName });
    return fn;
  };
  return Object.fromEntries(API_FUNCTION_GROUPS.map((group) => [group, build(group)])) as Record<
    ApiFunctionGroup,
    NodejsFunction
  >;
}

/**
 * Preflight answers for the origins given: the methods the routes use, and the headers a
 * SigV4-signed or bearer-token request and an idempotent POST carry.
 */
function corsOf(origins: readonly string[]): apigwv2.CorsPreflightOptions {
  return {
    allowOrigins: [...origins],
    allowMethods: [
      apigwv2.CorsHttpMethod.GET,
      apigwv2.CorsHttpMethod.POST,
      apigwv2.CorsHttpMethod.PUT,
      apigwv2.CorsHttpMethod.DELETE,
    ],
    allowHeaders: [
      'authorization',
      'content-type',
      'idempotency-key',
      'if-match',
      'x-amz-content-sha256',
      'x-amz-date',
      'x-amz-security-token',
    ],
    exposeHeaders: ['location', 'retry-after'],
    maxAge: Duration.hours(1),
  };
}

function checkProps(props: RunApiProps): void {
  if (props.jwt && props.jwt.audience.length === 0)
    throw new Error('RunApi: jwt.audience must name at least one audience');
  if (props.cors && props.cors.length === 0)
    throw new Error('RunApi: cors must name at least one origin (leave it out for no CORS)');
  const timeout = props.functionOptions?.timeout;
  if (timeout && timeout.toSeconds() > API_FUNCTION_TIMEOUT.toSeconds())
    throw new Error(
      `RunApi: a function timeout above ${API_FUNCTION_TIMEOUT.toSeconds()} s outlives API Gateway's 30-second integration timeout`,
    );
}

/** `openapi` → `Openapi`, `startRun` → `StartRun`: construct ids. */
function pascal(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}
