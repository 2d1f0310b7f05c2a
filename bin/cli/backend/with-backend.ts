import { ApiClient } from '../remote/api-client.js';
import { isLoopback, signingIdentity } from '../remote/signing-identity.js';
import { dataDirFlag } from '../data-dir.js';
import { CliError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { withSession, type GlobalOptions } from '../session.js';
import { apiBackend } from './api-backend.js';
import { localBackend } from './local-backend.js';
import type { RemoteRunBackend, RunBackend } from './run-backend.js';

export interface BackendOptions extends GlobalOptions {
  /** A Run API's base URL (`--endpoint`, or RALPH_ENDPOINT). */
  endpoint?: string;
}

/**
 * A client of the Run API at `endpoint`, signed as signing-identity.ts says, and the flags
 * a command needs besides the endpoint to reach it again.
 */
export async function apiClientFor(
  endpoint: string,
  options: GlobalOptions,
): Promise<{ client: ApiClient; flags: string }> {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new CliError(`--endpoint: "${endpoint}" is not a URL`, EXIT.invalidInput);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new CliError(`--endpoint: "${endpoint}" is not an http(s) URL`, EXIT.invalidInput);
  const identity = await signingIdentity(url, options.dataDir);
  // `ralph serve`'s credential is in the data dir: a command that calls it again needs that too.
  const flags = isLoopback(url) ? dataDirFlag(options) : '';
  return { client: new ApiClient({ endpoint: url, identity }), flags };
}

/** The Run API at `endpoint`. */
export async function remoteBackend(
  endpoint: string,
  options: GlobalOptions,
): Promise<RemoteRunBackend> {
  const { client, flags } = await apiClientFor(endpoint, options);
  return apiBackend(client, flags);
}

/** Runs `work` against the Run API when an endpoint is given, else against the local stack. */
export async function withBackend<T>(
  options: BackendOptions,
  work: (backend: RunBackend) => Promise<T>,
): Promise<T> {
  if (options.endpoint) return work(await remoteBackend(options.endpoint, options));
  return withSession(options, ({ stack, flags }) => work(localBackend(stack, flags)));
}
