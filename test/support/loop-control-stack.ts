import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { artefactKeys, type IterationArtefact } from '../../lambdas/core/shared/artefact-keys.js';
import type { Prd } from '../../lambdas/core/schemas/prd.js';
import { openLocalStack, type LocalStack } from '../../local/local-stack.js';
import { runCli, type CliResult } from './cli.js';
import { makeGitRepo } from './git-repo.js';

export interface PhasedStack {
  /** Opens the local stack on the file's data dir, runs `work`, and closes the stack again. */
  withStack<T>(work: (stack: LocalStack) => Promise<T>): Promise<T>;
  /** `ralph ARGS --data-dir DIR`, in this process: call it only while no stack is open. */
  cli(...args: string[]): Promise<CliResult>;
  /** A scratch directory outside every repository, for the scripts' state between iterations. */
  scratch(): string;
  /** A git repository with `prd` as prd.json and `files` (scripts) committed; removed after the file. */
  repo(prd: Prd, files?: Record<string, string>): Promise<string>;
}

/**
 * One data dir per test file, whose local stack is opened for a phase of a test and closed
 * after it. The `ralph` CLI under test runs in this process and starts its own emulators on
 * the data dir, which it can only do while no stack of this process holds the data dir
 * (it connects to another process's emulators, never to its own process's).
 */
export function usePhasedStack(prefix: string): PhasedStack {
  let dataDir: string | undefined;
  let scratchDir: string | undefined;
  const cleanups: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), `${prefix}-data-`));
    scratchDir = await mkdtemp(join(tmpdir(), `${prefix}-scratch-`));
  });
  afterAll(async () => {
    await Promise.all(cleanups.map((cleanup) => cleanup()));
    for (const dir of [dataDir, scratchDir])
      if (dir) await rm(dir, { recursive: true, force: true });
  });
  const required = (dir: string | undefined): string => {
    if (!dir) throw new Error('the data dir is not created yet');
    return dir;
  };
  return {
    async withStack(work) {
      const stack = await openLocalStack({
        dataDir: required(dataDir),
        retryIntervalMs: 0,
        cancelPollMs: 100,
      });
      try {
        return await work(stack);
      } finally {
        await stack.close();
      }
    },
    cli: (...args) => runCli([...args, '--data-dir', required(dataDir)]),
    scratch: () => required(scratchDir),
    async repo(prd, files = {}) {
      const made = await makeGitRepo({
        'prd.json': `${JSON.stringify(prd, null, 2)}\n`,
        ...files,
      });
      cleanups.push(made.cleanup);
      return made.path;
    },
  };
}

/** One of an iteration's stored artefacts (prompt.md, plan.json, ...) as text. */
export function iterationArtefact(
  stack: LocalStack,
  runId: string,
  iteration: number,
  name: IterationArtefact,
): Promise<string> {
  return stack.deps.artefacts.getText(artefactKeys.iteration(runId, iteration, name));
}
