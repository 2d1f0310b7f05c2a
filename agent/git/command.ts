/**
 * One git command: typed, with a timeout, never prompting, and never needing (or touching)
 * the user's git configuration: the commit identity and the credentials are passed per call.
 *
 * The agent may have rewritten the repository's `.git/config` and hooks, so git runs
 * without hooks or an fsmonitor command, and without the runner's credentials in its
 * environment (agent/process/environment.ts): whatever the agent planted there runs, at worst,
 * with no more than the agent had.
 */
import { RalphError } from '../../lambdas/core/errors.js';
import { realpath } from 'node:fs/promises';
import { dirname } from 'node:path';
import { GIT_CREDENTIAL_CONFIG_KEY, untrustedEnvironment } from '../process/environment.js';
import type { RunResult, Spawner } from '../process/spawner.js';

/** Where a git command runs, and the spawner that starts it. */
export interface Repo {
  readonly dir: string;
  readonly spawner: Spawner;
}

/** No hook and no fsmonitor command the agent could have configured runs for the runner. */
const NO_PLANTED_COMMANDS = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false'];
const DEFAULT_TIMEOUT_MS = 60_000;
/** Between SIGTERM and SIGKILL for a git command past its timeout. */
const KILL_GRACE_MS = 5_000;
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;

export interface GitOptions {
  timeoutMs?: number;
  /** Sent as an `Authorization` header to the remote; never written to disk or argv. */
  token?: string;
  input?: string;
  /**
   * Run as the runner even where git is confined to the agent's user (RunRequest.asRunner):
   * only in a repository of the runner's own, whose configuration the agent never touched.
   */
  asRunner?: boolean;
  /**
   * Git looks for the repository no higher than `dir` (`GIT_CEILING_DIRECTORIES` set to its
   * parent): a command in a directory that is not the top of a working tree fails.
   */
  topOnly?: boolean;
}

/** A git command that failed; the message holds git's stderr, with any credential removed. */
export class GitError extends RalphError {
  constructor(
    message: string,
    readonly exitCode: number | undefined,
    options?: ErrorOptions,
  ) {
    super(message, { ...options, code: 'GIT' });
    this.name = 'GitError';
  }
}

/**
 * Runs `git args...` in `repo.dir` and returns stdout (final newline removed).
 *
 * @example
 * const sha = await git({ dir: repo, spawner }, ['rev-parse', 'HEAD']);
 */
export async function git(
  repo: Repo,
  args: readonly string[],
  options: GitOptions = {},
): Promise<string> {
  return stripFinalNewline((await gitBytes(repo, args, options)).toString('utf8'));
}

/**
 * Runs `git args...` in `repo.dir` and returns stdout as bytes (a patch in a legacy encoding
 * must survive as it is).
 */
export async function gitBytes(
  repo: Repo,
  args: readonly string[],
  options: GitOptions = {},
): Promise<Buffer> {
  const ceiling = options.topOnly ? dirname(await realpath(repo.dir)) : undefined;
  const result = await runGit(repo, args, options, ceiling);
  if (result.failure !== undefined)
    throw new GitError(
      redact(`git ${args[0] ?? ''} failed: ${result.failure}`, options.token),
      result.exitCode,
    );
  return result.stdout;
}

/** Whether the git command exits 0; a failure to run it at all still throws. */
export async function succeeds(repo: Repo, args: readonly string[]): Promise<boolean> {
  try {
    await git(repo, args);
    return true;
  } catch (error) {
    if (error instanceof GitError) return false;
    throw error;
  }
}

interface GitProcessResult {
  stdout: Buffer;
  /** Why the command failed (git's stderr, or what went wrong); undefined when it exited 0. */
  failure?: string;
  exitCode: number | undefined;
}

/**
 * One git process: past `timeoutMs` it gets SIGTERM, then SIGKILL. Never rejects; a
 * command that could not run, or whose spawner failed, is a failure.
 */
async function runGit(
  repo: Repo,
  args: readonly string[],
  options: GitOptions,
  ceiling: string | undefined,
): Promise<GitProcessResult> {
  let result: RunResult;
  try {
    result = await repo.spawner.run({
      file: 'git',
      args: [...NO_PLANTED_COMMANDS, ...args],
      cwd: repo.dir,
      env: gitEnvironment({
        ...credentialEnv(options.token),
        ...(ceiling === undefined ? {} : { GIT_CEILING_DIRECTORIES: ceiling }),
      }),
      ...(options.input === undefined ? {} : { input: options.input }),
      ...(options.asRunner ? { asRunner: true } : {}),
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      killGraceMs: KILL_GRACE_MS,
      maxOutputBytes: MAX_OUTPUT_BYTES,
    });
  } catch (error) {
    return { stdout: Buffer.alloc(0), exitCode: undefined, failure: (error as Error).message };
  }
  const { exitCode, signal } = result;
  const errorText = stripFinalNewline(result.stderr.toString('utf8'));
  const failure =
    result.problem ??
    result.startError ??
    (exitCode === 0
      ? undefined
      : errorText || (signal ? `killed by ${signal}` : `exited with code ${exitCode ?? '?'}`));
  return {
    stdout: result.stdout,
    exitCode: exitCode ?? undefined,
    ...(failure === undefined ? {} : { failure }),
  };
}

/** What execa's `stripFinalNewline` does: one final `\n` or `\r\n` goes. */
function stripFinalNewline(text: string): string {
  if (!text.endsWith('\n')) return text;
  return text.slice(0, text.endsWith('\r\n') ? -2 : -1);
}

function gitEnvironment(extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...untrustedEnvironment(process.env),
    GIT_TERMINAL_PROMPT: '0',
    GCM_INTERACTIVE: 'never',
    ...extra,
  };
}

/**
 * The token goes in through `GIT_CONFIG_COUNT` / `GIT_CONFIG_KEY_n` / `GIT_CONFIG_VALUE_n`:
 * the same effect as `-c http.extraHeader=...`, but it stays out of the process list and out
 * of the command line that error messages repeat. Basic auth with `x-access-token` is what
 * GitHub (and most forges) accept for a token over HTTPS.
 */
function credentialEnv(token: string | undefined): Record<string, string> {
  if (token === undefined || token === '') return {};
  const basic = Buffer.from(`x-access-token:${token}`).toString('base64');
  return {
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: GIT_CREDENTIAL_CONFIG_KEY,
    GIT_CONFIG_VALUE_0: `Authorization: Basic ${basic}`,
  };
}

function redact(text: string, token: string | undefined): string {
  let out = text.replace(/(\/\/)[^/@\s]+@/g, '$1***@');
  if (token) {
    out = out.split(token).join('***');
    out = out.split(Buffer.from(`x-access-token:${token}`).toString('base64')).join('***');
  }
  return out;
}
