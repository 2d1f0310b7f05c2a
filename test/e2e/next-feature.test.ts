/**
 * The next feature, as a Ralph user starts it: after a run on `ralph/first`, the prd.json
 * for `ralph/second` is committed where the user sits (on `ralph/first`), and `ralph run`
 * again. The new branch starts with that prd.json, and the archive holds what the first
 * run left.
 */
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Prd } from '../../lambdas/core/schemas/prd.js';
import { git, makePrd } from '../support/git-repo.js';
import { useCliScratch } from '../support/cli.js';
import { WRITING_AGENT } from '../support/e2e-stack.js';

describe('ralph run: the next feature on a new branch', () => {
  const scratch = useCliScratch('ralph-next-');

  const prdFor = (branchName: string, id: string): Prd =>
    makePrd(1, {
      branchName,
      userStories: [{ ...makePrd(1).userStories[0]!, id, title: `Story ${id}` }],
    });
  const text = (prd: Prd) => `${JSON.stringify(prd, null, 2)}\n`;
  const run = (path: string) => scratch.ralph('run', '--repo', path, '--agent', WRITING_AGENT);

  it("starts ralph/second with the user's prd.json and archives ralph/first's files", async () => {
    // Prepare: the first feature, run to its end.
    const path = await scratch.repo({ 'prd.json': text(prdFor('ralph/first', 'F-1')) });
    const first = await run(path);
    expect(first.exitCode, first.stderr).toBe(0);
    const firstLeft = await readFile(join(path, 'prd.json'), 'utf8');
    const firstProgress = await readFile(join(path, 'progress.txt'), 'utf8');
    // The next prd.json, committed on ralph/first.
    await writeFile(join(path, 'prd.json'), text(prdFor('ralph/second', 'S-1')));
    await git(path, '-c', 'user.name=u', '-c', 'user.email=u@u.u', 'commit', '-qam', 'next prd');

    // Act
    const second = await run(path);

    // Assess
    expect(second.exitCode, second.stdout + second.stderr).toBe(0);
    const onSecond = JSON.parse(await git(path, 'show', 'ralph/second:prd.json')) as Prd;
    expect(onSecond.userStories.map((story) => [story.id, story.passes])).toEqual([['S-1', true]]);
    const [folder] = await readdir(join(path, 'archive'));
    expect(folder).toMatch(/^\d{4}-\d{2}-\d{2}-first$/);
    expect(await readFile(join(path, 'archive', folder!, 'prd.json'), 'utf8')).toBe(firstLeft);
    expect(await readFile(join(path, 'archive', folder!, 'progress.txt'), 'utf8')).toBe(
      firstProgress,
    );
    expect(JSON.parse(firstLeft)).toMatchObject({ branchName: 'ralph/first' });
  });
});
