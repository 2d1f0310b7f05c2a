/**
 * Who the CLI signs Run API requests as. A loopback endpoint is `ralph serve`: its
 * credential and region are in `<data dir>/serve.json`. Any other endpoint is a deployment:
 * the default AWS credential chain (environment, profile, SSO, instance role …) and the
 * region of the execute-api host name (or, for a custom domain, AWS_REGION / AWS_DEFAULT_REGION).
 */
import { fromNodeProviderChain } from '@aws-sdk/credential-providers';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';
import { readServeFile } from '../../../local/api-server/serve-file.js';
import { CliError } from '../errors.js';
import { EXIT } from '../exit-codes.js';

export interface SigningIdentity {
  credentials: AwsCredentialIdentity | AwsCredentialIdentityProvider;
  region: string;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export function isLoopback(endpoint: URL): boolean {
  return LOOPBACK_HOSTS.has(endpoint.hostname);
}

/** `https://abc123.execute-api.eu-west-1.amazonaws.com` → `eu-west-1`. */
export function regionOfExecuteApiHost(hostname: string): string | undefined {
  return /\.execute-api\.([a-z0-9-]+)\.amazonaws\.com(\.cn)?$/.exec(hostname)?.[1];
}

export async function signingIdentity(endpoint: URL, dataDir: string): Promise<SigningIdentity> {
  if (isLoopback(endpoint)) {
    const serve = await readServeFile(dataDir);
    if (!serve)
      throw new CliError(
        `no credential for ${endpoint.origin}: ${dataDir}/serve.json is missing. Start \`ralph serve\` first (with the same --data-dir)`,
        EXIT.invalidInput,
      );
    if (new URL(serve.endpoint).origin !== endpoint.origin)
      throw new CliError(
        `${dataDir}/serve.json is for ${serve.endpoint}, not ${endpoint.origin}: is \`ralph serve\` still running there?`,
        EXIT.invalidInput,
      );
    return { credentials: serve, region: serve.region };
  }
  const region =
    process.env.AWS_REGION ||
    process.env.AWS_DEFAULT_REGION ||
    regionOfExecuteApiHost(endpoint.hostname);
  if (!region)
    throw new CliError(
      `no AWS region for ${endpoint.origin}: set AWS_REGION (the region the stack is deployed in)`,
      EXIT.invalidInput,
    );
  return { credentials: fromNodeProviderChain(), region };
}
