import { dirname, resolve } from 'node:path';
import { InvalidInputError } from '../../../lambdas/core/errors.js';
import { repoRefOf } from '../../../lambdas/core/runs/repo-ref.js';
import { remoteBackend } from '../backend/with-backend.js';
import type { RemoteRunBackend } from '../backend/run-backend.js';
import { CliError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import { followRun } from '../follow.js';
import type { Output } from '../output.js';
import { isLoopback } from '../remote/signing-identity.js';
import { resolveRunInput, type RunFlags } from '../run-input.js';
import type { GlobalOptions } from '../session.js';
import { agentLabel, reportEnd } from '../report-end.js';
import { runLine } from '../run-line.js';

export interface RemoteRunOptions extends RunFlags, GlobalOptions {
  endpoint: string;
}

/** A git URL a deployment can clone (what the API itself accepts). */
function isGitUrl(repo: string): boolean {
  try {
    return repoRefOf(repo, { allowLocal: false }).kind === 'git';
  } catch (error) {
    if (error instanceof InvalidInputError) return false;
    throw error;
  }
}

/**
 * `ralph run --endpoint URL`: the same checks as a local run, then POST /runs, then follow
 * the run to its end and print what local mode prints. A deployment cannot reach a path on
 * this machine: that is refused before anything is sent.
 */
export async function runThroughApi(options: RemoteRunOptions, output: Output): Promise<number> {
  const endpoint = new URL(options.endpoint);
  const gitUrl = isGitUrl(options.repo);
  if (!gitUrl && !isLoopback(endpoint))
    throw new CliError(
      `--repo ${options.repo} is a path on this machine, which ${endpoint.origin} cannot reach: push the repository and pass its git URL (--repo https://… or git@host:org/repo.git) with --prd`,
      EXIT.invalidInput,
    );
  if (gitUrl && !options.prd)
    throw new CliError(
      `with a git URL as --repo, pass --prd (and --config) as files on this machine`,
      EXIT.invalidInput,
    );
  const input = await resolveRunInput(
    { ...options, repo: gitUrl ? dirname(resolve(options.prd!)) : options.repo },
    { agentRunsHere: isLoopback(endpoint) },
  );
  const backend = await remoteBackend(options.endpoint, options);
  output.line(`ralph-cloud · ${backend.label} · agent: ${agentLabel(input)}`);
  const started = await backend.start({
    repo: gitUrl ? options.repo : input.repoPath,
    prd: input.prd,
    config: input.config,
    // Where prd.json is in this working copy (a clone's is the default, prd.json).
    ...(gitUrl ? {} : { prdPath: input.prdPath }),
  });
  output.line(runLine(started.runId, input.prd, input.config));
  return followToEnd(backend, started.runId, output);
}

/** `ralph resume RUN --endpoint URL [--max-iterations N]`: start the next segment there and follow it. */
export async function resumeThroughApi(
  runId: string,
  options: GlobalOptions & { endpoint: string; maxIterations?: number },
  output: Output,
): Promise<number> {
  const backend = await remoteBackend(options.endpoint, options);
  const { maxIterations } = options;
  const { segment } = await backend.resume(
    runId,
    maxIterations === undefined ? undefined : { maxIterations },
  );
  output.line(`ralph-cloud · ${backend.label} · resuming run ${runId} in segment ${segment}`);
  return followToEnd(backend, runId, output, segment);
}

async function followToEnd(
  backend: RemoteRunBackend,
  runId: string,
  output: Output,
  segment?: number,
): Promise<number> {
  await followRun(backend, runId, {
    write: (line) => output.line(line),
    ...(segment === undefined ? {} : { segment }),
  });
  return reportEnd(backend, runId, output);
}
