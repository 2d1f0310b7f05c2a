import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { ChildProcessSpawner } from '../../agent/process/child-process-spawner.js';
import type { Repo } from '../../agent/git/command.js';
import { makeGitRepo } from './git-repo.js';

/** The spawner the runner's git functions run through in these tests. */
export const spawner = new ChildProcessSpawner();

/** `dir` as the runner's git functions take it. */
export function at(dir: string): Repo {
  return { dir, spawner };
}

/**
 * Repositories and directories made for one test and removed after it.
 *
 * @example
 * const { repo, tempDir } = useScratch();
 * const path = await repo({ 'a.txt': 'a\n' });
 */
export function useScratch(): {
  repo(files?: Record<string, string>): Promise<string>;
  tempDir(): Promise<string>;
} {
  const temporary: string[] = [];
  afterEach(async () => {
    await Promise.all(temporary.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });
  return {
    repo: async (files = { 'a.txt': 'a\n' }) => {
      const made = await makeGitRepo(files);
      temporary.push(made.path);
      return made.path;
    },
    tempDir: async () => {
      const dir = await mkdtemp(join(tmpdir(), 'ralph-git-'));
      temporary.push(dir);
      return dir;
    },
  };
}
