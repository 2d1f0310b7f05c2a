import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, vi } from 'vitest';
import { execa, type ResultPromise } from 'execa';
import { makeGitRepo, makePrd } from './git-repo.js';
import { WRITING_AGENT } from './e2e-stack.js';
import { main } from '../../bin/cli/main.js';

export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Runs the `ralph` CLI in-process (one invocation = one CLI process) and captures its output. */
export async function runCli(args: readonly string[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += chunk.toString();
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += chunk.toString();
    return true;
  });
  try {
    const exitCode = await main(args);
    return { exitCode, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

/** The JSON document a `--json` invocation printed. */
export function jsonOf<T>(result: CliResult): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(`not JSON (exit ${result.exitCode}):\n${result.stdout}\n${result.stderr}`);
  }
}

/** A data dir and repositories for one CLI e2e file (useCliScratch). */
export interface CliScratch {
  /** The file's data dir (made before its first test). */
  readonly dataDir: string;
  /** A committed git repository with `files`, removed after the file's tests. */
  repo(files: Record<string, string>): Promise<string>;
  /** `ralph ...args --data-dir <the file's data dir>`, in-process (runCli). */
  ralph(...args: string[]): Promise<CliResult>;
}

/**
 * Makes a data dir before the file's tests and removes it, and every repository `repo`
 * made, after them.
 */
export function useCliScratch(prefix: string): CliScratch {
  let dataDir = '';
  const cleanups: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), prefix));
  });
  afterAll(async () => {
    await Promise.all(cleanups.map((cleanup) => cleanup()));
    await rm(dataDir, { recursive: true, force: true });
  });
  return {
    get dataDir() {
      return dataDir;
    },
    repo: async (files) => {
      const made = await makeGitRepo(files);
      cleanups.push(made.cleanup);
      return made.path;
    },
    ralph: (...args) => runCli([...args, '--data-dir', dataDir]),
  };
}

/** A run of one story, completed by the writing agent in a throwaway repository. */
export async function completeOneRun(dataDir: string): Promise<void> {
  const repo = await makeGitRepo({ 'prd.json': JSON.stringify(makePrd(1), null, 2) });
  try {
    const run = await runCli([
      'run',
      '--repo',
      repo.path,
      '--agent',
      WRITING_AGENT,
      '--data-dir',
      dataDir,
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
  } finally {
    await repo.cleanup();
  }
}

const PROCESS_OPTIONS = { reject: false, all: true, env: { NO_COLOR: '1' } } as const;

/**
 * `ralph ...args` as a process of its own, the way a person starts it in a terminal (from
 * the source tree, under tsx). `detached`: in a process group of its own, for a test that
 * kills the group; `env`: variables it gets besides this process's.
 */
export function ralphProcess(
  args: readonly string[],
  options: { detached?: boolean; env?: Record<string, string> } = {},
): ResultPromise<typeof PROCESS_OPTIONS> {
  return execa(process.execPath, ['--import', 'tsx', 'bin/ralph.ts', ...args], {
    ...PROCESS_OPTIONS,
    env: { ...PROCESS_OPTIONS.env, ...options.env },
    ...(options.detached ? { detached: true } : {}),
  });
}
