/**
 * The iteration runner's AWS session, scoped to the one iteration it runs.
 *
 * The agent task's role may do nothing but assume the runner role
 * (lib/agent-cluster.ts). The runner role may read and write any run's items and iteration
 * artefacts; the runner assumes it with a session policy naming its own run and iteration,
 * and AWS grants the intersection of the two. So a runner (or whoever got hold of its
 * session) can touch `RUN#<runId>` items and `runs/<runId>/iterations/<n>/` objects only, and
 * never the judge's verdicts under that iteration's `expensive/`.
 */
import { fromTemporaryCredentials } from '@aws-sdk/credential-providers';
import type { AwsCredentialIdentityProvider } from '@smithy/types';
import { artefactKeys } from '../core/shared/artefact-keys.js';
import { runStoreKeys } from './dynamodb/run-items.js';
import { RUNNER_OBJECT_ACTIONS, RUNNER_TABLE_ACTIONS } from './runner-access.js';

/** The most a chained role session may last; the provider renews it before it expires. */
const SESSION_SECONDS = 3_600;

/** One iteration of one run. */
export interface RunScope {
  readonly runId: string;
  readonly iteration: number;
  readonly bucketName: string;
}

interface PolicyStatement {
  Effect: 'Allow' | 'Deny';
  Action: readonly string[];
  Resource: string | readonly string[];
  Condition?: Record<string, Record<string, readonly string[]>>;
}

/**
 * The session policy of one iteration's runner. It only narrows the runner role's own
 * policy, which names the table and the bucket: hence a `*` table resource (narrowed by
 * leading key) and a wildcard partition in the bucket ARNs (the runner does not know it).
 *
 * @example
 * const policy = runSessionPolicy({ runId: 'r-1', iteration: 3, bucketName: 'artefacts' });
 */
export function runSessionPolicy(scope: RunScope): {
  Version: '2012-10-17';
  Statement: PolicyStatement[];
} {
  const bucket = `arn:*:s3:::${scope.bucketName}`;
  const iterationPrefix = artefactKeys
    .iteration(scope.runId, scope.iteration, 'plan.json')
    .replace(/plan\.json$/, '');
  const progressArchive = artefactKeys.progressArchive(scope.runId, scope.iteration);
  return {
    Version: '2012-10-17',
    Statement: [
      {
        Effect: 'Allow',
        Action: RUNNER_TABLE_ACTIONS,
        Resource: '*',
        Condition: {
          'ForAllValues:StringEquals': {
            'dynamodb:LeadingKeys': [runStoreKeys.runPk(scope.runId)],
          },
        },
      },
      {
        Effect: 'Allow',
        Action: RUNNER_OBJECT_ACTIONS,
        Resource: [`${bucket}/${iterationPrefix}*`, `${bucket}/${progressArchive}`],
      },
      {
        // A missing plan is a 404 (not a 403) only with ListBucket on its prefix.
        Effect: 'Allow',
        Action: ['s3:ListBucket'],
        Resource: bucket,
        Condition: { StringLike: { 's3:prefix': [`${iterationPrefix}*`] } },
      },
      {
        Effect: 'Deny',
        Action: ['s3:PutObject'],
        Resource: `${bucket}/${iterationPrefix}expensive/*`,
      },
    ],
  };
}

/** Where the runner role is and how to reach STS. */
export interface RunSessionOptions extends RunScope {
  readonly roleArn: string;
  readonly region?: string;
  /** A local STS stand-in (tests). */
  readonly stsEndpoint?: string;
}

/**
 * Credentials of the runner role, narrowed to one iteration, renewed before they expire.
 * Each AssumeRole call has a timeout and the SDK's bounded retries.
 */
export function runScopedCredentials(options: RunSessionOptions): AwsCredentialIdentityProvider {
  return fromTemporaryCredentials({
    params: {
      RoleArn: options.roleArn,
      RoleSessionName: roleSessionName('ralph', options),
      Policy: JSON.stringify(runSessionPolicy(options)),
      DurationSeconds: SESSION_SECONDS,
    },
    clientConfig: stsClientConfig(options.region, options.stsEndpoint),
  });
}

/** STS calls, as every external call: a timeout per attempt and bounded retries. */
export function stsClientConfig(region?: string, endpoint?: string) {
  return {
    ...(region === undefined ? {} : { region }),
    ...(endpoint === undefined ? {} : { endpoint }),
    maxAttempts: 4,
    requestHandler: {
      connectionTimeout: 3_000,
      requestTimeout: 5_000,
      throwOnRequestTimeout: true,
    },
  };
}

/**
 * A session name CloudTrail shows for a run's iteration: `[\w+=,.@-]{2,64}`. The run id is a
 * safe key segment, so only its length can break that.
 */
export function roleSessionName(
  prefix: string,
  scope: Pick<RunScope, 'runId' | 'iteration'>,
): string {
  return `${prefix}-${scope.iteration}-${scope.runId}`.slice(0, 64);
}
