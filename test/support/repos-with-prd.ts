import { afterAll } from 'vitest';
import type { Prd } from '../../lambdas/core/schemas/prd.js';
import { makeGitRepo, makePrd } from './git-repo.js';
// Apart from git-repo.ts, which the benches import too: this one needs vitest's hooks.

/**
 * Throwaway repositories for one test file, removed after it: each with a prd.json of
 * `stories` open stories (and `extra` files) committed on `main`.
 */
export function useReposWithPrd(): (
  stories: number,
  extra?: Record<string, string>,
) => Promise<{ repo: string; prd: Prd }> {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    await Promise.all(cleanups.map((cleanup) => cleanup()));
  });
  return async (stories, extra = {}) => {
    const prd = makePrd(stories);
    const repo = await makeGitRepo({ 'prd.json': `${JSON.stringify(prd, null, 2)}\n`, ...extra });
    cleanups.push(repo.cleanup);
    return { repo: repo.path, prd };
  };
}
