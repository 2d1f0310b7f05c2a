import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { resolve } from 'node:path';
import { BUNDLE_SETTINGS, PROMPT_TEMPLATES_SOURCE } from './bundle-settings.js';
import { LOCK_FILE, REPO_ROOT } from './paths.js';

/** Log levels understood by Powertools Logger (`POWERTOOLS_LOG_LEVEL`). */
export type PowertoolsLogLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

/**
 * Options shared by every function of the loop; each has a secure or cheap default.
 */
export interface FunctionOptions {
  /**
   * Memory in MiB. CPU share scales with it.
   *
   * @default 512
   */
  readonly memorySize?: number;

  /**
   * Maximum run time of one invocation.
   *
   * @default Duration.minutes(1)
   */
  readonly timeout?: Duration;

  /**
   * Retention of the function's log group.
   *
   * @default logs.RetentionDays.ONE_MONTH
   */
  readonly logRetention?: logs.RetentionDays;

  /**
   * What happens to the log group when the stack is deleted.
   *
   * @default RemovalPolicy.RETAIN
   */
  readonly logRemovalPolicy?: RemovalPolicy;

  /**
   * Powertools Logger level.
   *
   * @default 'INFO'
   */
  readonly logLevel?: PowertoolsLogLevel;

  /**
   * Powertools service name, the `service` key of every log line.
   *
   * @default 'ralph-cloud'
   */
  readonly serviceName?: string;
}

/**
 * Properties of one function built by {@link createNodejsFunction}.
 */
export interface NodejsFunctionDefaultsProps extends FunctionOptions {
  /** Handler module, absolute or relative to the repository root; it exports `handler`. */
  readonly entry: string;

  /**
   * Description shown in the Lambda console.
   *
   * @default - none
   */
  readonly description?: string;

  /**
   * Extra environment variables, merged over the Powertools defaults.
   *
   * @default - only the Powertools and source-map variables
   */
  readonly environment?: Record<string, string>;
}

/** The defaults applied by {@link createNodejsFunction}, in one place. */
export const FUNCTION_DEFAULTS = {
  runtime: lambda.Runtime.NODEJS_22_X,
  architecture: lambda.Architecture.ARM_64,
  memorySize: 512,
  timeout: Duration.minutes(1),
  logRetention: logs.RetentionDays.ONE_MONTH,
  logRemovalPolicy: RemovalPolicy.RETAIN,
  logLevel: 'INFO',
  serviceName: 'ralph-cloud',
} as const;

/**
 * Shell commands, run after esbuild, that copy the prompt templates into the bundle as
 * `templates/` beside `index.mjs`. Used for every function: the templates are a few
 * kilobytes, and a handler that comes to import the prompt code then cannot miss them.
 *
 * @example
 * copyPromptTemplates('/repo', '/tmp/asset') // ['cp -R "/repo/lambdas/core/prompts/templates" "/tmp/asset/templates"']
 */
export function copyPromptTemplates(inputDir: string, outputDir: string): string[] {
  return [`cp -R "${inputDir}/${PROMPT_TEMPLATES_SOURCE}" "${outputDir}/templates"`];
}

/**
 * Builds a `NodejsFunction` with the project's defaults: Node.js 22 on ARM64 (cheaper per
 * GB-second), bundled locally by esbuild into minified ESM without source maps (no Docker)
 * and the prompt templates beside it, X-Ray tracing, its own log group with a retention and
 * a role that may write to that group only, and Powertools configured through environment
 * variables.
 *
 * @example
 * const fn = createNodejsFunction(this, 'InitRun', {
 *   entry: 'lambdas/handlers/init-run.ts',
 *   environment: { TABLE_NAME: table.tableName },
 * });
 */
export function createNodejsFunction(
  scope: Construct,
  id: string,
  props: NodejsFunctionDefaultsProps,
): NodejsFunction {
  const logGroup = new logs.LogGroup(scope, `${id}LogGroup`, {
    retention: props.logRetention ?? FUNCTION_DEFAULTS.logRetention,
    removalPolicy: props.logRemovalPolicy ?? FUNCTION_DEFAULTS.logRemovalPolicy,
  });

  const fn = new NodejsFunction(scope, id, {
    entry: resolve(REPO_ROOT, props.entry),
    handler: 'handler',
    description: props.description,
    projectRoot: REPO_ROOT,
    depsLockFilePath: LOCK_FILE,
    runtime: FUNCTION_DEFAULTS.runtime,
    architecture: FUNCTION_DEFAULTS.architecture,
    memorySize: props.memorySize ?? FUNCTION_DEFAULTS.memorySize,
    timeout: props.timeout ?? FUNCTION_DEFAULTS.timeout,
    tracing: lambda.Tracing.ACTIVE,
    logGroup,
    environment: {
      POWERTOOLS_SERVICE_NAME: props.serviceName ?? FUNCTION_DEFAULTS.serviceName,
      POWERTOOLS_LOG_LEVEL: props.logLevel ?? FUNCTION_DEFAULTS.logLevel,
      ...props.environment,
    },
    bundling: {
      forceDockerBundling: false,
      format: OutputFormat.ESM,
      target: BUNDLE_SETTINGS.target,
      mainFields: [...BUNDLE_SETTINGS.mainFields],
      banner: BUNDLE_SETTINGS.banner,
      minify: BUNDLE_SETTINGS.minify,
      sourceMap: BUNDLE_SETTINGS.sourceMap,
      keepNames: BUNDLE_SETTINGS.keepNames,
      // Per-file size listings drown real problems in synth and test output.
      logLevel: LogLevel.WARNING,
      // Ship the SDK versions the handlers were tested with instead of the runtime's copy.
      bundleAwsSDK: true,
      commandHooks: {
        beforeBundling: () => [],
        beforeInstall: () => [],
        afterBundling: copyPromptTemplates,
      },
    },
  });

  Validations.of(fn).acknowledge(
    {
      id: 'AwsSolutions-L1',
      reason:
        'Pinned to Node.js 22, the LTS line the handlers are bundled for (esbuild target node22) and tested on; moving to a newer runtime is a deliberate upgrade.',
    },
    {
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'Active tracing adds xray:PutTraceSegments and xray:PutTelemetryRecords, which support no resource-level permissions.',
    },
  );
  withoutBasicExecutionPolicy(fn, logGroup);
  return fn;
}

/**
 * The AWS-managed basic execution policy CDK attaches may write to every log group of the
 * account (`*`): the function's role writes to its own group instead. The role stays the
 * one CDK makes (a child of the function, so the function's acknowledgements cover it);
 * only its managed policy goes.
 */
function withoutBasicExecutionPolicy(fn: NodejsFunction, logGroup: logs.LogGroup): void {
  const role = fn.role as iam.Role;
  (role.node.defaultChild as iam.CfnRole).managedPolicyArns = [];
  logGroup.grantWrite(role);
}
