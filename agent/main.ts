/**
 * The agent container's entrypoint: runs one iteration of one run, named by the
 * environment the run-agent task sets, against DynamoDB and S3.
 *
 * Exit status: 0 whenever the iteration ran, whatever its outcome (result.json says how it
 * went); non-zero only when it could not run or report: 2 for a bad environment, 3 when
 * the iteration was already claimed (a duplicate delivery), 1 for anything else.
 */
import { ConfigurationError } from '../lambdas/core/errors.js';
import { chown, mkdir, readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { createDynamoDocumentClient, createS3Client } from '../lambdas/adapters/aws-clients.js';
import { systemClock } from '../lambdas/adapters/clock.js';
import { promptTemplates } from '../lambdas/adapters/prompt-template-files.js';
import { DynamoRunStore } from '../lambdas/adapters/dynamodb/run-store.js';
import { S3ArtefactStore } from '../lambdas/adapters/s3.js';
import { IterationClaimedError } from '../lambdas/core/errors.js';
import { bedrockAgentEnvironment } from '../lambdas/adapters/agent-model-session.js';
import { runScopedCredentials } from '../lambdas/adapters/run-session.js';
import type { AwsClientOptions } from '../lambdas/adapters/aws-clients.js';
import { ChildProcessSpawner } from './process/child-process-spawner.js';
import { ConfinedSpawner } from './process/confined-spawner.js';
import type { Spawner } from './process/spawner.js';
import { findUser } from './process/untrusted-identity.js';
import { runIteration } from './runner.js';

export const EXIT_BAD_ENVIRONMENT = 2;
export const EXIT_ALREADY_CLAIMED = 3;

export interface AgentEnvironment {
  runId: string;
  iteration: number;
  tableName: string;
  bucketName: string;
  gitToken?: string;
  workspaceRoot: string;
  /**
   * `RALPH_AGENT_USER`: the unprivileged user the agent, the gates and git run as (the image
   * sets `agent`); the runner must then be root. Unset: they run as the runner's own user.
   */
  agentUser?: string;
  /**
   * `RALPH_RUNNER_ROLE_ARN`: the role the runner assumes with a session policy scoped to
   * this iteration (lambdas/adapters/run-session.ts). Unset: the runner uses its own
   * credentials as they are (local runs).
   */
  runnerRoleArn?: string;
  /**
   * `RALPH_AGENT_MODEL_ROLE_ARN`: the agent reaches Claude on Bedrock through a session of
   * this role, which may only invoke models (lambdas/adapters/agent-model-session.ts).
   */
  agentModelRoleArn?: string;
  /** `AWS_REGION`: where that session calls Bedrock. */
  region?: string;
  /**
   * `AWS_ENDPOINT_URL_DYNAMODB`, `_S3`, `_STS`: local emulators and stand-ins (tests), with
   * the emulators' path-style S3 addressing.
   */
  endpoints: { dynamodb?: string; s3?: string; sts?: string };
}

/** Reads the task's environment, naming every missing or malformed variable at once. */
export function readEnvironment(env: NodeJS.ProcessEnv): AgentEnvironment {
  const problems: string[] = [];
  const required = (name: string): string => {
    const value = env[name]?.trim();
    if (!value) problems.push(`${name} is not set`);
    return value ?? '';
  };
  const runId = required('RALPH_RUN_ID');
  const iterationText = required('RALPH_ITERATION');
  if (env.RALPH_AGENT_MODEL_ROLE_ARN && !env.AWS_REGION?.trim())
    problems.push('AWS_REGION is not set (the agent calls Bedrock there)');
  const tableName = required('TABLE_NAME');
  const bucketName = required('BUCKET_NAME');
  const iteration = Number(iterationText);
  if (iterationText && !(Number.isSafeInteger(iteration) && iteration > 0))
    problems.push(`RALPH_ITERATION must be a positive integer, got "${iterationText}"`);
  if (problems.length > 0)
    throw new ConfigurationError(
      `the agent container's environment is incomplete: ${problems.join('; ')}`,
    );
  return {
    runId,
    iteration,
    tableName,
    bucketName,
    ...(env.GIT_TOKEN ? { gitToken: env.GIT_TOKEN } : {}),
    workspaceRoot: env.RALPH_WORKSPACE_ROOT || process.cwd(),
    ...(env.RALPH_AGENT_USER ? { agentUser: env.RALPH_AGENT_USER } : {}),
    ...(env.RALPH_RUNNER_ROLE_ARN ? { runnerRoleArn: env.RALPH_RUNNER_ROLE_ARN } : {}),
    ...(env.RALPH_AGENT_MODEL_ROLE_ARN
      ? { agentModelRoleArn: env.RALPH_AGENT_MODEL_ROLE_ARN }
      : {}),
    ...(env.AWS_REGION ? { region: env.AWS_REGION } : {}),
    endpoints: {
      ...(env.AWS_ENDPOINT_URL_DYNAMODB ? { dynamodb: env.AWS_ENDPOINT_URL_DYNAMODB } : {}),
      ...(env.AWS_ENDPOINT_URL_S3 ? { s3: env.AWS_ENDPOINT_URL_S3 } : {}),
      ...(env.AWS_ENDPOINT_URL_STS ? { sts: env.AWS_ENDPOINT_URL_STS } : {}),
    },
  };
}

/**
 * The spawner of untrusted commands: as the agent user when one is named (the runner must
 * be root to switch to it), else plain child processes of the runner's own user.
 */
export async function untrustedSpawner(config: AgentEnvironment): Promise<Spawner> {
  const spawner = new ChildProcessSpawner();
  if (config.agentUser === undefined) return spawner;
  const identity = findUser(await readFile('/etc/passwd', 'utf8'), config.agentUser);
  if (process.getuid?.() !== 0)
    throw new ConfigurationError(
      `RALPH_AGENT_USER=${config.agentUser}: the runner must run as root to start commands as another user`,
    );
  // The clones are made below it by the agent user (git runs as that user).
  await mkdir(config.workspaceRoot, { recursive: true });
  await chown(config.workspaceRoot, identity.uid, identity.gid);
  return new ConfinedSpawner(spawner, identity);
}

/** On Bedrock, the agent's model session, asked for before each agent run. */
function agentModelAccess(config: AgentEnvironment): {
  agentModelAccess?: () => Promise<Record<string, string>>;
} {
  const { agentModelRoleArn: roleArn, region } = config;
  if (roleArn === undefined || region === undefined) return {};
  return {
    agentModelAccess: () =>
      bedrockAgentEnvironment({
        roleArn,
        region,
        runId: config.runId,
        iteration: config.iteration,
        ...(config.endpoints.sts === undefined ? {} : { stsEndpoint: config.endpoints.sts }),
      }),
  };
}

/** The table's and the bucket's client options: the run-scoped session when there is a role. */
function clientOptions(config: AgentEnvironment): {
  dynamo: AwsClientOptions;
  s3: AwsClientOptions;
} {
  const credentials =
    config.runnerRoleArn === undefined
      ? undefined
      : runScopedCredentials({
          roleArn: config.runnerRoleArn,
          runId: config.runId,
          iteration: config.iteration,
          bucketName: config.bucketName,
          ...(config.endpoints.sts === undefined ? {} : { stsEndpoint: config.endpoints.sts }),
        });
  const common = credentials === undefined ? {} : { credentials };
  return {
    dynamo: {
      ...common,
      ...(config.endpoints.dynamodb ? { endpoint: config.endpoints.dynamodb } : {}),
    },
    s3: { ...common, ...(config.endpoints.s3 ? { endpoint: config.endpoints.s3 } : {}) },
  };
}

/** Runs the iteration the environment names; resolves to the process exit status. */
export async function main(env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let config: AgentEnvironment;
  let spawner: Spawner;
  try {
    config = readEnvironment(env);
    spawner = await untrustedSpawner(config);
  } catch (error) {
    logLine({ level: 'ERROR', message: (error as Error).message });
    return EXIT_BAD_ENVIRONMENT;
  }

  // ECS stops a task with SIGTERM, then SIGKILL 30 s later: long enough to stop the agent,
  // keep its change as evidence and write result.json.
  const interrupt = new AbortController();
  const onSignal = () => interrupt.abort();
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);

  try {
    const clients = clientOptions(config);
    const result = await runIteration(
      {
        runs: new DynamoRunStore({
          client: createDynamoDocumentClient(clients.dynamo),
          tableName: config.tableName,
        }),
        artefacts: new S3ArtefactStore({
          client: createS3Client(clients.s3),
          bucket: config.bucketName,
        }),
        clock: systemClock,
        templates: promptTemplates(),
        // The container's process is small: its forks are cheap, no spawn server needed.
        spawner,
        workspaceRoot: config.workspaceRoot,
        signal: interrupt.signal,
        ...(config.gitToken === undefined ? {} : { gitToken: config.gitToken }),
        ...agentModelAccess(config),
        log: (event) => process.stderr.write(`${JSON.stringify({ level: 'DEBUG', ...event })}\n`),
      },
      { runId: config.runId, iteration: config.iteration },
    );
    logLine({
      level: 'INFO',
      message: 'iteration finished',
      runId: result.runId,
      iteration: result.iteration,
      taskId: result.taskId,
      outcome: result.outcome,
      cause: result.cause,
      commit: result.commit,
      evidenceRef: result.evidenceRef,
      durations: result.durations,
    });
    return 0;
  } catch (error) {
    const claimed = error instanceof IterationClaimedError;
    logLine({
      level: claimed ? 'WARN' : 'ERROR',
      message: claimed ? 'iteration already claimed' : 'iteration failed to run',
      runId: config.runId,
      iteration: config.iteration,
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    });
    return claimed ? EXIT_ALREADY_CLAIMED : 1;
  } finally {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  }
}

function logLine(fields: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ timestamp: new Date().toISOString(), ...fields })}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main();
}
