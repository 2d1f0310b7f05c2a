import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitError } from '../../agent/git/command.js';
import { listRefs } from '../../agent/git/refs.js';
import { isRepository, status, statusPorcelain } from '../../agent/git/status.js';
import { git } from '../support/git-repo.js';
import { at, useScratch } from '../support/git-scratch.js';

const { repo, tempDir } = useScratch();

describe('Module: git/status', () => {
  it('tells the top of a working tree from a plain or nested directory', async () => {
    // Prepare
    const path = await repo();
    await mkdir(join(path, 'sub'));

    // Act & Assess
    expect(await isRepository(at(path))).toBe(true);
    expect(await isRepository(at(join(path, 'sub')))).toBe(false);
    expect(await isRepository(at(await tempDir()))).toBe(false);
  });

  it('lists status entries file by file, renames with their source', async () => {
    // Prepare
    const path = await repo({ 'old.txt': 'content\n', 'b.txt': 'b\n' });
    await git(path, 'mv', 'old.txt', 'new name.txt');
    await writeFile(join(path, 'b.txt'), 'changed\n');
    await mkdir(join(path, 'dir'));
    await writeFile(join(path, 'dir', 'c.txt'), 'c\n');

    // Act
    const entries = await statusPorcelain(at(path));

    // Assess
    expect(entries).toEqual([
      { code: ' M', path: 'b.txt' },
      { code: 'R ', path: 'new name.txt', from: 'old.txt' },
      { code: '??', path: 'dir/c.txt' },
    ]);
  });

  it('reads HEAD and the status entries in one call, the entries as statusPorcelain lists them', async () => {
    // Prepare
    const path = await repo({ 'old.txt': 'content\n', 'b.txt': 'b\n', 'gone.txt': 'g\n' });
    await git(path, 'mv', 'old.txt', 'new name.txt');
    await writeFile(join(path, 'b.txt'), 'changed\n');
    await rm(join(path, 'gone.txt'));
    await mkdir(join(path, 'dir'));
    await writeFile(join(path, 'dir', 'c d.txt'), 'c\n');
    await writeFile(join(path, 'staged.txt'), 's\n');
    await git(path, 'add', 'staged.txt');
    await writeFile(join(path, 'staged.txt'), 's2\n');

    // Act
    const found = await status(at(path));

    // Assess
    expect(found.head).toBe(await git(path, 'rev-parse', 'HEAD'));
    expect(found.entries).toEqual(await statusPorcelain(at(path)));
    expect(found.entries).toContainEqual({ code: 'R ', path: 'new name.txt', from: 'old.txt' });
    expect(found.entries).toContainEqual({ code: '??', path: 'dir/c d.txt' });
    expect(found.entries).toContainEqual({ code: 'AM', path: 'staged.txt' });
    expect(found.entries).toContainEqual({ code: ' D', path: 'gone.txt' });
  });

  it('reports no HEAD for a repository without commits, and fails above the top with topOnly', async () => {
    // Prepare
    const empty = await tempDir();
    await git(empty, 'init', '--quiet');
    await writeFile(join(empty, 'new.txt'), 'n');
    const path = await repo();
    await mkdir(join(path, 'sub'));

    // Act
    const found = await status(at(empty), { topOnly: true });

    // Assess
    expect(found).toEqual({ head: undefined, entries: [{ code: '??', path: 'new.txt' }] });
    await expect(status(at(join(path, 'sub')), { topOnly: true })).rejects.toThrow(GitError);
    await expect(listRefs(at(join(path, 'sub')), { topOnly: true })).rejects.toThrow(GitError);
    expect((await status(at(join(path, 'sub')))).head).toBe(await git(path, 'rev-parse', 'HEAD'));
    await expect(status(at(await tempDir()), { topOnly: true })).rejects.toThrow(GitError);
  });
});
