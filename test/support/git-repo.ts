import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import type { Prd } from '../../lambdas/core/schemas/prd.js';

const IDENTITY = ['-c', 'user.name=test', '-c', 'user.email=test@example.invalid'];

/** A throwaway git repository on `main` with `files` committed; remove it with `cleanup`. */
export async function makeGitRepo(
  files: Record<string, string>,
): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), 'ralph-repo-'));
  for (const [name, content] of Object.entries(files)) {
    await mkdir(dirname(join(path, name)), { recursive: true });
    await writeFile(join(path, name), content);
  }
  await git(path, 'init', '--quiet', '--initial-branch', 'main');
  await git(path, 'add', '-A');
  await git(path, ...IDENTITY, 'commit', '--quiet', '--allow-empty', '-m', 'initial');
  return { path, cleanup: () => rm(path, { recursive: true, force: true }) };
}

export async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await execa('git', args, { cwd });
  return stdout;
}

/** A prd.json with `count` open stories US-001.., priorities in order. */
export function makePrd(count: number, overrides: Partial<Prd> = {}): Prd {
  return {
    project: 'Demo',
    branchName: 'ralph/demo',
    description: 'A test project',
    userStories: Array.from({ length: count }, (_, index) => ({
      id: `US-${String(index + 1).padStart(3, '0')}`,
      title: `Story ${index + 1}`,
      description: `As a user I want story ${index + 1}.`,
      acceptanceCriteria: ['Tests pass'],
      priority: index + 1,
      passes: false,
      notes: '',
    })),
    ...overrides,
  };
}
