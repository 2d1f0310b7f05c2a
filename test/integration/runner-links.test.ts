import { lstat, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runIteration } from '../../agent/runner.js';
import { git } from '../support/git-repo.js';
import { scenario, tempDir, useRunnerScenarios } from '../support/runner-scenario.js';

useRunnerScenarios();

/**
 * In the container the runner is root: a link the agent leaves where the runner writes its
 * own files must not carry those writes (or reads) out of the repository.
 */
describe('Function: runIteration — links where the runner writes', () => {
  it('replaces a progress.txt the agent turned into a link, and leaves its target alone', async () => {
    // Prepare
    const outside = join(await tempDir('outside'), 'secret.txt');
    await writeFile(outside, "not the runner's to write\n");
    const { runId, repo, deps } = await scenario({
      agent: `rm progress.txt && ln -s ${outside} progress.txt && exit 1`,
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('agent_failed');
    expect(await readFile(outside, 'utf8')).toBe("not the runner's to write\n");
    expect((await lstat(join(repo, 'progress.txt'))).isSymbolicLink()).toBe(false);
  });

  it('refuses to write prd.json and progress.txt through a linked directory', async () => {
    // Prepare: scripts/ralph is committed as a link to a directory outside the repository.
    const elsewhere = await tempDir('elsewhere');
    const { runId, repo, deps } = await scenario({
      agent: 'true',
      prdPath: 'scripts/ralph/prd.json',
      commitPrd: false,
      prepareRepo: async (path, prdText) => {
        await writeFile(join(elsewhere, 'prd.json'), prdText);
        await mkdir(join(path, 'scripts'));
        await symlink(elsewhere, join(path, 'scripts/ralph'), 'dir');
        await git(path, 'add', 'scripts');
        await git(path, 'commit', '-q', '-m', 'link');
      },
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 }).catch((error: Error) => error);

    // Assess
    const cause = result instanceof Error ? result.message : (result.cause ?? '');
    expect(cause).toContain('scripts/ralph is a symbolic link');
    expect((await readdir(elsewhere)).sort()).toEqual(['prd.json']);
    expect(await git(repo, 'status', '--porcelain')).toBe('');
  });
});
