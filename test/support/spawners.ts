import { ChildProcessSpawner } from '../../agent/child-process-spawner.js';
import type { Spawner } from '../../agent/spawner.js';
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
