import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { ChildProcessSpawner } from '../../agent/process/child-process-spawner.js';
import type { RunRequest, Spawner } from '../../agent/process/spawner.js';
import { SpawnServer } from '../../local/spawn-server/spawn-server.js';

/** A spawner under test, and how to let it go. */
export interface TestSpawner {
  spawner: Spawner;
  close(): void;
}

/**
 * Both spawners: the container's plain child processes and the local stack's spawn server.
 * What the runner relies on must hold for each (`describe.each(SPAWNERS)`).
 */
export const SPAWNERS: readonly [string, () => TestSpawner][] = [
  ['ChildProcessSpawner', () => ({ spawner: new ChildProcessSpawner(), close: () => undefined })],
  [
    'SpawnServer',
    () => {
      const server = new SpawnServer();
      return { spawner: server, close: () => server.close() };
    },
  ],
];

/** `sh -c script` as a run request, with generous limits unless `extra` says otherwise. */
export function shell(script: string, extra: Partial<RunRequest> = {}): RunRequest {
  return {
    file: 'sh',
    args: ['-c', script],
    cwd: tmpdir(),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    timeoutMs: 10_000,
    killGraceMs: 1_000,
    maxOutputBytes: 64 * 1024 * 1024,
    ...extra,
  };
}

/** Registers the clean-up of the directories `tempDir` makes, after each test. */
export function useTempDirs(): () => Promise<string> {
  const temporary: string[] = [];
  afterEach(async () => {
    await Promise.all(temporary.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });
  return async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ralph-spawn-'));
    temporary.push(dir);
    return dir;
  };
}

/** Whether `pid` is a running (not zombie) process. */
export async function isProcessRunning(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}
