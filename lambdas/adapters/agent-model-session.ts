/**
 * The agent's access to Claude on Amazon Bedrock: instead of an API key, a session of the
 * agent model role, which may only invoke Anthropic models (lib/agent-cluster.ts). The
 * runner assumes it before each agent run and hands the agent the session's keys in the
 * variables Claude Code reads for Bedrock; the gates never get them.
 */
import { fromTemporaryCredentials } from '@aws-sdk/credential-providers';
import { roleSessionName, stsClientConfig } from './run-session.js';

/** Where the agent model role is and how to reach STS. */
export interface AgentModelSessionOptions {
  readonly roleArn: string;
  readonly region: string;
  readonly runId: string;
  readonly iteration: number;
  /** A local STS stand-in (tests). */
  readonly stsEndpoint?: string;
}

/** Role chaining caps a session at an hour: an agent running longer loses model access. */
const SESSION_SECONDS = 3_600;

/**
 * The agent's environment for Bedrock: a fresh session's keys, the region, and
 * `CLAUDE_CODE_USE_BEDROCK=1`. One AssumeRole call, with a timeout and bounded retries.
 */
export async function bedrockAgentEnvironment(
  options: AgentModelSessionOptions,
): Promise<Record<string, string>> {
  const session = await fromTemporaryCredentials({
    params: {
      RoleArn: options.roleArn,
      RoleSessionName: roleSessionName('ralph-agent', options),
      DurationSeconds: SESSION_SECONDS,
    },
    clientConfig: stsClientConfig(options.region, options.stsEndpoint),
  })();
  return {
    CLAUDE_CODE_USE_BEDROCK: '1',
    AWS_REGION: options.region,
    AWS_ACCESS_KEY_ID: session.accessKeyId,
    AWS_SECRET_ACCESS_KEY: session.secretAccessKey,
    ...(session.sessionToken ? { AWS_SESSION_TOKEN: session.sessionToken } : {}),
  };
}
