/**
 * References taken on the same warm stack, in the same process, right after a measured
 * run: one RunStore.getRun (DynamoDB and zod), and one git call through a spawn server
 * beside the same call forked from this process.
 */
import { SpawnServer } from '../../local/spawn-server/spawn-server.js';
import type { RunMeasurement } from './measured-run.js';
import { timeEach } from './timing.js';

export interface References {
  getRunTimes: number[];
  gitViaServer: number[];
  gitSpawnedHere: number[];
}

export async function referencesOn(measurement: RunMeasurement): Promise<References> {
  const { stack, runId, repoPath } = measurement;
  const getRunTimes = await timeEach(50, () => stack.deps.runs.getRun(runId));
  const git = await gitCallReferences(repoPath);
  return { getRunTimes, gitViaServer: git.viaServer, gitSpawnedHere: git.spawnedHere };
}

/**
 * One `git rev-parse HEAD` the way the local runner runs it (through a spawn server), and the
 * same spawned from this process, whose fork costs in proportion to its size.
 */
async function gitCallReferences(
  cwd: string,
): Promise<{ viaServer: number[]; spawnedHere: number[] }> {
  const { execFile } = await import('node:child_process');
  const server = new SpawnServer();
  const viaServer = async () => {
    const result = await server.run({
      file: 'git',
      args: ['rev-parse', 'HEAD'],
      cwd,
      env: { PATH: process.env.PATH ?? '', GIT_TERMINAL_PROMPT: '0' },
      timeoutMs: 60_000,
      killGraceMs: 5_000,
      maxOutputBytes: 256 * 1024 * 1024,
    });
    if (result.exitCode !== 0) throw new Error(result.stderr.toString());
  };
  const spawnedHere = () =>
    new Promise<void>((resolve, reject) =>
      execFile('git', ['rev-parse', 'HEAD'], { cwd }, (error) =>
        error ? reject(error) : resolve(),
      ),
    );
  try {
    // A first round of each is discarded: a warm-up.
    await timeEach(25, viaServer);
    await timeEach(25, spawnedHere);
    return {
      viaServer: await timeEach(25, viaServer),
      spawnedHere: await timeEach(25, spawnedHere),
    };
  } finally {
    server.close();
  }
}
