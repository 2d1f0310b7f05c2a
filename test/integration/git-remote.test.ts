import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkoutBranch, currentBranch } from '../../agent/git/branches.js';
import { commit } from '../../agent/git/commits.js';
import { updateRef } from '../../agent/git/refs.js';
import { clone, forcePushHead, push } from '../../agent/git/remote.js';
import { addAll } from '../../agent/git/staging.js';
import { git } from '../support/git-repo.js';
import { at, spawner, useScratch } from '../support/git-scratch.js';

const { repo, tempDir } = useScratch();

/** A clone of `origin` on a new branch `ralph/feature` with one commit; its sha. */
async function cloneWithCommit(
  origin: string,
): Promise<{ copy: string; base: string; sha: string }> {
  const copy = join(await tempDir(), 'clone');
  await clone(spawner, origin, copy);
  await checkoutBranch(at(copy), 'ralph/feature', 'origin/main');
  const base = await git(copy, 'rev-parse', 'HEAD');
  await writeFile(join(copy, 'f.txt'), 'f');
  await addAll(at(copy));
  return { copy, base, sha: await commit(at(copy), 'feat: f') };
}

describe('Module: git/remote', () => {
  it('pushes a branch and a side ref to origin', async () => {
    // Prepare
    const origin = await repo();
    const { copy, sha } = await cloneWithCommit(origin);
    await updateRef(at(copy), 'refs/ralph/evidence/run-1/1', sha);

    // Act
    await push(at(copy), { url: origin }, 'ralph/feature');
    await push(at(copy), { url: origin }, 'refs/ralph/evidence/run-1/1');

    // Assess
    expect(await git(origin, 'rev-parse', 'ralph/feature')).toBe(sha);
    expect(await git(origin, 'rev-parse', 'refs/ralph/evidence/run-1/1')).toBe(sha);
    expect(await currentBranch(at(copy))).toBe('ralph/feature');
  });

  it("pushes to the run's URL whatever the working copy's config says", async () => {
    // Prepare: the agent pointed origin at a decoy, rewrote the run's URL to the decoy too,
    // set a proxy that does not exist, and left a pre-push hook.
    const origin = await repo();
    const decoy = await repo();
    const { copy, sha } = await cloneWithCommit(origin);
    await git(copy, 'remote', 'set-url', 'origin', decoy);
    await git(copy, 'config', `url.${decoy}.insteadOf`, origin);
    await git(copy, 'config', 'http.proxy', 'http://127.0.0.1:9');
    await writeFile(join(copy, '.git', 'hooks', 'pre-push'), '#!/bin/sh\nexit 1\n', {
      mode: 0o755,
    });

    // Act
    await push(at(copy), { url: origin }, 'ralph/feature');

    // Assess
    expect(await git(origin, 'rev-parse', 'ralph/feature')).toBe(sha);
    expect(await git(decoy, 'branch', '--list', 'ralph/feature')).toBe('');
  });

  it('moves the remote branch back by force', async () => {
    // Prepare
    const origin = await repo();
    const { copy, base } = await cloneWithCommit(origin);
    await push(at(copy), { url: origin }, 'ralph/feature');
    await git(copy, 'reset', '--hard', base);

    // Act
    await forcePushHead(at(copy), { url: origin }, 'ralph/feature');

    // Assess
    expect(await git(origin, 'rev-parse', 'ralph/feature')).toBe(base);
  });
});
