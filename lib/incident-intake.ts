import { ArnFormat, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { join } from 'node:path';
import { HOOK_ROUTES, type ApiRoute } from '../lambdas/api/route-table.js';
import { ROUTE_PARTITIONS } from '../lambdas/adapters/table-design.js';
import {
  ERROR_GROUP_PARTITIONS,
  grantDataAccess,
  PROJECT_PARTITIONS,
  RUN_PARTITIONS,
  type DataAccess,
} from './data-access.js';
import type { FunctionOptions } from './function-defaults.js';
import { createNodejsFunction } from './function-defaults.js';
import { HANDLERS_DIR, STATE_MACHINES_DIR } from './paths.js';
import type { Storage } from './storage.js';

/** Properties of {@link IncidentIntake}. */
export interface IncidentIntakeProps {
  readonly storage: Storage;
  /** The run loop: a closed batch starts its investigate run there. */
  readonly runLoop: sfn.IStateMachine;
  /** The Run API's HTTP API: the hook routes are added to it, without its authorizer. */
  readonly httpApi: apigwv2.IHttpApi;
  /**
   * The Sentry integration's client secret (a plain string), which signs its deliveries.
   *
   * @default - none: POST /hooks/sentry answers 401 to every delivery
   */
  readonly sentryClientSecret?: secretsmanager.ISecret;
  /**
   * The token New Relic's workflow sends (a plain string).
   *
   * @default - none: POST /hooks/newrelic answers 401 to every delivery
   */
  readonly newRelicTokenSecret?: secretsmanager.ISecret;
  /**
   * The header New Relic puts the token in; `Authorization: Bearer <token>` when absent.
   *
   * @default - the bearer token
   */
  readonly newRelicHeader?: string;
  /** @default - the defaults of `createNodejsFunction` */
  readonly functionOptions?: FunctionOptions;
  /** @default false */
  readonly destroyOnRemoval?: boolean;
}

/** Where a batch's run starts: its request and its error groups, under a run id it draws. */
const RUN_SUBMISSION: NonNullable<DataAccess['bucket']> = {
  read: ['runs/*/request.json', 'runs/*/errors/*.json'],
  write: ['runs/*/request.json', 'runs/*/errors/*.json'],
  why: "Closing a batch writes the run request and each error group of a run id it draws itself (core/intake/close-batch.ts → lifecycle.submitRun), so the key patterns cover those two names under every run and nothing else of a run's.",
};

/**
 * What the intake keeps on the table (docs/data-model.md, "Error groups and batches"):
 * replay keys, error groups, a project's batches and hourly run counts, and the routes it
 * reads. A function that never takes a delivery (the batch closer) gets no replay keys and
 * reads no run (a delivery reads the run investigating its group: has it ended?).
 */
function intakeTable(withReplayKeys: boolean): DataAccess['table'] {
  return [
    {
      actions: [
        'dynamodb:GetItem',
        'dynamodb:PutItem',
        'dynamodb:UpdateItem',
        'dynamodb:DeleteItem',
        'dynamodb:Query',
      ],
      partitions: [
        ...(withReplayKeys ? ['DELIVERY#*'] : []),
        ERROR_GROUP_PARTITIONS,
        PROJECT_PARTITIONS,
      ],
    },
    {
      actions: ['dynamodb:GetItem'],
      partitions: [
        ROUTE_PARTITIONS.routes,
        `${ROUTE_PARTITIONS.matchPrefix}*`,
        // Whether the run investigating a group has ended without concluding it.
        ...(withReplayKeys ? [RUN_PARTITIONS] : []),
      ],
    },
  ];
}

/**
 * Error-triggered runs' way in:
 * - `POST /hooks/sentry` and `POST /hooks/newrelic` on the Run API, without its authorizer:
 *   each delivery is checked by its sender's own scheme (Sentry's HMAC signature, New
 *   Relic's token) in the hooks function, the only function that may read those secrets;
 *   `POST /hooks/cloudwatch` behind the API's authorizer, for a signed alarm delivery;
 * - CloudWatch alarms through an EventBridge rule on `CloudWatch Alarm State Change` (to
 *   `ALARM` only) and an SNS topic (`AlarmIntakeTopic`: point alarm actions at it), both to
 *   the alarm-events function, which AWS invokes itself;
 * - the batch closer, a state machine that waits out a batch's window and closes it, which
 *   starts one investigate run on the run loop for the batch's error groups.
 */
export class IncidentIntake extends Construct {
  public readonly hooksFunction: NodejsFunction;
  public readonly alarmFunction: NodejsFunction;
  public readonly closeBatchFunction: NodejsFunction;
  public readonly batchCloser: sfn.StateMachine;
  public readonly alarmRule: events.Rule;
  /** Where CloudWatch alarms may send their state changes (alarm JSON in `Message`). */
  public readonly alarmTopic: sns.Topic;
  /** The hook routes by path. */
  public readonly routes: Readonly<Record<string, apigwv2.HttpRoute>>;

  constructor(scope: Construct, id: string, props: IncidentIntakeProps) {
    super(scope, id);
    const removalPolicy = props.destroyOnRemoval ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN;
    const { storage } = props;
    const tableEnvironment = {
      TABLE_NAME: storage.table.tableName,
      BUCKET_NAME: storage.bucket.bucketName,
      STATE_MACHINE_ARN: props.runLoop.stateMachineArn,
    };

    // The closer's ARN is built from its name, not read from the resource: the close
    // function schedules the next batch's close (groups past a run's cap), and a reference
    // to the state machine that invokes it would be a dependency cycle.
    const batchCloserName = `${Stack.of(this).stackName}-close-batch`;
    const batchCloserArn = Stack.of(this).formatArn({
      service: 'states',
      resource: 'stateMachine',
      resourceName: batchCloserName,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    const intakeEnvironment = { ...tableEnvironment, BATCH_CLOSER_ARN: batchCloserArn };
    this.closeBatchFunction = createNodejsFunction(this, 'CloseBatch', {
      ...props.functionOptions,
      entry: join(HANDLERS_DIR, 'close-batch.ts'),
      description: 'Closes an error batch once its window ends and starts its investigate run',
      environment: intakeEnvironment,
    });
    this.batchCloser = this.createBatchCloser(batchCloserName, removalPolicy);
    this.hooksFunction = createNodejsFunction(this, 'Hooks', {
      ...props.functionOptions,
      entry: join(HANDLERS_DIR, 'api-hooks.ts'),
      description:
        'POST /hooks/sentry and /hooks/newrelic: verified by the sender, recorded, batched',
      environment: {
        ...intakeEnvironment,
        ...(props.sentryClientSecret
          ? { SENTRY_SECRET_ARN: props.sentryClientSecret.secretArn }
          : {}),
        ...(props.newRelicTokenSecret
          ? { NEWRELIC_SECRET_ARN: props.newRelicTokenSecret.secretArn }
          : {}),
        ...(props.newRelicHeader ? { NEWRELIC_HEADER: props.newRelicHeader } : {}),
      },
    });
    this.alarmFunction = createNodejsFunction(this, 'AlarmEvents', {
      ...props.functionOptions,
      entry: join(HANDLERS_DIR, 'alarm-events.ts'),
      description: 'CloudWatch alarm state changes (EventBridge, SNS): recorded, batched',
      environment: intakeEnvironment,
    });

    for (const fn of [this.hooksFunction, this.alarmFunction, this.closeBatchFunction]) {
      const takesDeliveries = fn !== this.closeBatchFunction;
      grantDataAccess(fn, { table: intakeTable(takesDeliveries), bucket: RUN_SUBMISSION }, storage);
      // A closed batch starts its run; a window of 0 closes it within the delivery.
      props.runLoop.grantStartExecution(fn);
      fn.addToRolePolicy(
        new iam.PolicyStatement({
          actions: ['states:StartExecution'],
          resources: [batchCloserArn],
        }),
      );
    }
    props.sentryClientSecret?.grantRead(this.hooksFunction);
    props.newRelicTokenSecret?.grantRead(this.hooksFunction);

    this.routes = this.createRoutes(props.httpApi);
    this.alarmRule = new events.Rule(this, 'AlarmStateChange', {
      description:
        'CloudWatch alarms going to ALARM: recorded as error events, batched into investigate runs',
      eventPattern: {
        source: ['aws.cloudwatch'],
        detailType: ['CloudWatch Alarm State Change'],
        detail: { state: { value: ['ALARM'] } },
      },
      targets: [
        new targets.LambdaFunction(this.alarmFunction, {
          retryAttempts: 8,
          maxEventAge: Duration.hours(1),
        }),
      ],
    });
    this.alarmTopic = this.createAlarmTopic(removalPolicy);
  }

  private createBatchCloser(
    stateMachineName: string,
    removalPolicy: RemovalPolicy,
  ): sfn.StateMachine {
    const logGroup = new logs.LogGroup(this, 'BatchCloserLogs', {
      logGroupName: `/aws/vendedlogs/states/${stateMachineName}`,
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy,
    });
    const machine = new sfn.StateMachine(this, 'BatchCloser', {
      stateMachineName,
      stateMachineType: sfn.StateMachineType.STANDARD,
      definitionBody: sfn.DefinitionBody.fromFile(join(STATE_MACHINES_DIR, 'close-batch.asl.json')),
      definitionSubstitutions: {
        CloseBatchFunctionArn: this.closeBatchFunction.functionArn,
      },
      logs: { destination: logGroup, level: sfn.LogLevel.ALL, includeExecutionData: true },
      tracingEnabled: true,
    });
    // The Task state calls the unqualified function ARN: no `:*` version wildcard is needed.
    machine.role.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['lambda:InvokeFunction'],
        resources: [this.closeBatchFunction.functionArn],
      }),
    );
    Validations.of(machine).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'The X-Ray and CloudWatch Logs delivery actions CDK adds for tracing and logging support no resource-level permissions.',
    });
    return machine;
  }

  private createRoutes(httpApi: apigwv2.IHttpApi): Record<string, apigwv2.HttpRoute> {
    const integration = new HttpLambdaIntegration('HooksIntegration', this.hooksFunction, {
      payloadFormatVersion: apigwv2.PayloadFormatVersion.VERSION_2_0,
    });
    const routes = HOOK_ROUTES.map((route: ApiRoute) => {
      const bySender = route.auth === 'sender';
      const created = new apigwv2.HttpRoute(this, `${route.id}Route`, {
        httpApi,
        routeKey: apigwv2.HttpRouteKey.with(route.path, apigwv2.HttpMethod[route.method]),
        integration,
        // A sender that cannot sign with SigV4 gets no authorizer: the function checks its
        // own signature or token. Any other hook route keeps the API's authorizer.
        ...(bySender ? { authorizer: new apigwv2.HttpNoneAuthorizer() } : {}),
      });
      if (bySender)
        Validations.of(created).acknowledge({
          id: 'AwsSolutions-APIG4',
          reason:
            "Webhook senders (Sentry, New Relic) cannot sign with SigV4 or present a JWT: the hooks function authenticates every delivery by its sender's scheme (the HMAC-SHA256 signature of the body with a fresh timestamp, or the configured token, compared in constant time) and refuses the rest with 401 before anything is written.",
        });
      return [route.path, created] as const;
    });
    return Object.fromEntries(routes);
  }

  private createAlarmTopic(removalPolicy: RemovalPolicy): sns.Topic {
    const key = new kms.Key(this, 'AlarmTopicKey', {
      description: 'ralph-cloud alarm intake topic',
      enableKeyRotation: true,
      removalPolicy,
    });
    // CloudWatch alarms publish as the service: it needs the key to encrypt what it sends.
    key.grant(
      new iam.ServicePrincipal('cloudwatch.amazonaws.com'),
      'kms:Decrypt',
      'kms:GenerateDataKey*',
    );
    const topic = new sns.Topic(this, 'AlarmTopic', {
      displayName: 'ralph-cloud alarm intake (alarms that start investigate runs)',
      masterKey: key,
      enforceSSL: true,
    });
    topic.addSubscription(new subscriptions.LambdaSubscription(this.alarmFunction));
    return topic;
  }
}
