import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBranch, defaultBranch } from '../../agent/git/branches.js';
import { branchHeads, headRef, isAncestor, listRefs, setHeadRef } from '../../agent/git/refs.js';
import { clone } from '../../agent/git/remote.js';
import { git } from '../support/git-repo.js';
import { at, spawner, useScratch } from '../support/git-scratch.js';

const { repo, tempDir } = useScratch();

describe('Modules: git/refs, git/branches', () => {
  it("lists the branches, the one checked out, and origin's remote-tracking branches", async () => {
    // Prepare
    const origin = await repo();
    const main = await git(origin, 'rev-parse', 'HEAD');
    const copy = join(await tempDir(), 'clone');
    await clone(spawner, origin, copy);
    await createBranch(at(copy), 'ralph/x', 'origin/main');

    // Act
    const listed = await listRefs(at(copy), { remotes: true });
    const local = await listRefs(at(copy));
    await git(copy, 'checkout', '-q', '--detach');
    const detached = await listRefs(at(copy));
    await git(copy, 'checkout', '-q', 'ralph/x');
    await git(copy, 'update-ref', '-d', 'refs/heads/ralph/x');
    const deleted = await listRefs(at(copy));

    // Assess
    expect(listed.heads).toEqual(
      new Map([
        ['refs/heads/main', main],
        ['refs/heads/ralph/x', main],
      ]),
    );
    expect(listed.current).toBe('refs/heads/ralph/x');
    expect(listed.remotes.get('refs/remotes/origin/main')).toBe(main);
    expect(local.remotes.size).toBe(0);
    expect(detached.current).toBeUndefined();
    expect(deleted.current).toBeUndefined();
    expect(deleted.heads.has('refs/heads/ralph/x')).toBe(false);
    expect(await headRef(at(copy))).toBe('refs/heads/ralph/x');
  });

  it('finds the default branch: origin/HEAD, else main or master, else the current branch', async () => {
    // Prepare
    const path = await repo();
    const copy = join(await tempDir(), 'clone');
    await clone(spawner, path, copy);
    await git(path, 'branch', '-m', 'main', 'trunk');

    // Act & Assess
    expect(await defaultBranch(at(copy))).toBe('main');
    expect(await defaultBranch(at(path))).toBe('trunk');
    await git(path, 'branch', 'master');
    expect(await defaultBranch(at(path))).toBe('master');
  });

  it('lists branch heads, tells ancestors, and points HEAD at a branch', async () => {
    // Prepare
    const path = await repo();
    const first = await git(path, 'rev-parse', 'HEAD');
    await git(path, 'checkout', '-q', '-b', 'feature/x');
    await git(
      path,
      '-c',
      'user.name=t',
      '-c',
      'user.email=t@t.t',
      'commit',
      '-q',
      '--allow-empty',
      '-m',
      'x',
    );
    const second = await git(path, 'rev-parse', 'HEAD');

    // Act
    const heads = await branchHeads(at(path));
    await setHeadRef(at(path), 'refs/heads/main');

    // Assess
    expect(heads).toEqual(
      new Map([
        ['refs/heads/feature/x', second],
        ['refs/heads/main', first],
      ]),
    );
    expect(await isAncestor(at(path), first, second)).toBe(true);
    expect(await isAncestor(at(path), second, first)).toBe(false);
    expect(await headRef(at(path))).toBe('refs/heads/main');
    await git(path, 'checkout', '-q', '--detach');
    expect(await headRef(at(path))).toBeUndefined();
  });
});
