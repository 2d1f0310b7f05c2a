import { Duration } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import { join } from 'node:path';
import { API_ACCESS, grantApiAccess } from './api-access.js';
import type { FunctionOptions } from './function-defaults.js';
import { createNodejsFunction } from './function-defaults.js';
import { HANDLERS_DIR } from './paths.js';
import type { Storage } from './storage.js';

/** Properties of {@link ExecutionWatch}. */
export interface ExecutionWatchProps {
  readonly storage: Storage;
  readonly stateMachine: sfn.IStateMachine;
  /** Its name, known at synthesis. */
  readonly stateMachineName: string;
  /** @default - the defaults of `createNodejsFunction` */
  readonly functionOptions?: FunctionOptions;
}

/** The statuses that end an execution without the loop's own FinalizeRun or PauseRun. */
export const UNHANDLED_END_STATUSES = ['FAILED', 'TIMED_OUT', 'ABORTED'] as const;

/**
 * No silent failures: an EventBridge rule on the run loop's execution status changes sends
 * every execution that failed (past every Catch), timed out or was stopped to a function
 * that ends its run `failed` with the cause (lambdas/handlers/execution-ended.ts), if the run
 * is still running. The function may do what a cancel does to a run's records — read and
 * write run items, read the open iteration's result.json, write summary.json — and nothing
 * else.
 */
export class ExecutionWatch extends Construct {
  public readonly function: NodejsFunction;
  public readonly rule: events.Rule;

  constructor(scope: Construct, id: string, props: ExecutionWatchProps) {
    super(scope, id);
    this.function = createNodejsFunction(this, 'ExecutionEnded', {
      ...props.functionOptions,
      entry: join(HANDLERS_DIR, 'execution-ended.ts'),
      description: 'Ends a run failed when its execution failed, timed out or was stopped',
      environment: {
        TABLE_NAME: props.storage.table.tableName,
        BUCKET_NAME: props.storage.bucket.bucketName,
      },
    });
    const { table, bucket } = API_ACCESS.control;
    grantApiAccess(
      this.function,
      { ...(table ? { table } : {}), ...(bucket ? { bucket } : {}) },
      props,
    );

    this.rule = new events.Rule(this, 'UnhandledEnd', {
      description: 'Run-loop executions that ended outside the loop: the run ends failed',
      eventPattern: {
        source: ['aws.states'],
        detailType: ['Step Functions Execution Status Change'],
        detail: {
          status: [...UNHANDLED_END_STATUSES],
          stateMachineArn: [props.stateMachine.stateMachineArn],
        },
      },
      targets: [
        new targets.LambdaFunction(this.function, {
          // EventBridge retries a failed delivery with backoff; a run left running for an
          // hour is better ended late than never.
          retryAttempts: 8,
          maxEventAge: Duration.hours(2),
        }),
      ],
    });
  }
}
