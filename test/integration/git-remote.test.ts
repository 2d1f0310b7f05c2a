import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkoutBranch, currentBranch } from '../../agent/git/branches.js';
import { commit } from '../../agent/git/commits.js';
import { updateRef } from '../../agent/git/refs.js';
import { clone, push } from '../../agent/git/remote.js';
import { addAll } from '../../agent/git/staging.js';
import { git } from '../support/git-repo.js';
import { at, spawner, useScratch } from '../support/git-scratch.js';

const { repo, tempDir } = useScratch();

describe('Module: git/remote', () => {
  it('pushes a branch and a side ref to origin', async () => {
    // Prepare
    const origin = await repo();
    const copy = join(await tempDir(), 'clone');
    await clone(spawner, origin, copy);
    await checkoutBranch(at(copy), 'ralph/feature', 'origin/main');
    await writeFile(join(copy, 'f.txt'), 'f');
    await addAll(at(copy));
    const sha = await commit(at(copy), 'feat: f');
    await updateRef(at(copy), 'refs/ralph/evidence/run-1/1', sha);

    // Act
    await push(at(copy), 'ralph/feature');
    await push(at(copy), 'refs/ralph/evidence/run-1/1');

    // Assess
    expect(await git(origin, 'rev-parse', 'ralph/feature')).toBe(sha);
    expect(await git(origin, 'rev-parse', 'refs/ralph/evidence/run-1/1')).toBe(sha);
    expect(await currentBranch(at(copy))).toBe('ralph/feature');
  });
});
