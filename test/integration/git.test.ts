import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { access, chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import * as g from '../../agent/git.js';
import { git, makeGitRepo } from '../support/git-repo.js';

const temporary: string[] = [];

afterEach(async () => {
  await Promise.all(temporary.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function repo(files: Record<string, string> = { 'a.txt': 'a\n' }): Promise<string> {
  const made = await makeGitRepo(files);
  temporary.push(made.path);
  return made.path;
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ralph-git-'));
  temporary.push(dir);
  return dir;
}

describe('Module: git', () => {
  it('tells the top of a working tree from a plain or nested directory', async () => {
    // Prepare
    const path = await repo();
    await mkdir(join(path, 'sub'));

    // Act & Assess
    expect(await g.isRepository(path)).toBe(true);
    expect(await g.isRepository(join(path, 'sub'))).toBe(false);
    expect(await g.isRepository(await tempDir())).toBe(false);
  });

  it('lists status entries file by file, renames with their source', async () => {
    // Prepare
    const path = await repo({ 'old.txt': 'content\n', 'b.txt': 'b\n' });
    await git(path, 'mv', 'old.txt', 'new name.txt');
    await writeFile(join(path, 'b.txt'), 'changed\n');
    await mkdir(join(path, 'dir'));
    await writeFile(join(path, 'dir', 'c.txt'), 'c\n');

    // Act
    const entries = await g.statusPorcelain(path);

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
    const status = await g.status(path);

    // Assess
    expect(status.head).toBe(await git(path, 'rev-parse', 'HEAD'));
    expect(status.entries).toEqual(await g.statusPorcelain(path));
    expect(status.entries).toContainEqual({ code: 'R ', path: 'new name.txt', from: 'old.txt' });
    expect(status.entries).toContainEqual({ code: '??', path: 'dir/c d.txt' });
    expect(status.entries).toContainEqual({ code: 'AM', path: 'staged.txt' });
    expect(status.entries).toContainEqual({ code: ' D', path: 'gone.txt' });
  });

  it('reports no HEAD for a repository without commits, and fails above the top with topOnly', async () => {
    // Prepare
    const empty = await tempDir();
    await git(empty, 'init', '--quiet');
    await writeFile(join(empty, 'new.txt'), 'n');
    const path = await repo();
    await mkdir(join(path, 'sub'));

    // Act
    const status = await g.status(empty, { topOnly: true });

    // Assess
    expect(status).toEqual({ head: undefined, entries: [{ code: '??', path: 'new.txt' }] });
    await expect(g.status(join(path, 'sub'), { topOnly: true })).rejects.toThrow(g.GitError);
    await expect(g.listRefs(join(path, 'sub'), { topOnly: true })).rejects.toThrow(g.GitError);
    expect((await g.status(join(path, 'sub'))).head).toBe(await git(path, 'rev-parse', 'HEAD'));
    await expect(g.status(await tempDir(), { topOnly: true })).rejects.toThrow(g.GitError);
  });

  it("lists the branches, the one checked out, and origin's remote-tracking branches", async () => {
    // Prepare
    const origin = await repo();
    const main = await git(origin, 'rev-parse', 'HEAD');
    const clone = join(await tempDir(), 'clone');
    await g.clone(origin, clone);
    await g.createBranch(clone, 'ralph/x', 'origin/main');

    // Act
    const refs = await g.listRefs(clone, { remotes: true });
    const local = await g.listRefs(clone);
    await git(clone, 'checkout', '-q', '--detach');
    const detached = await g.listRefs(clone);
    await git(clone, 'checkout', '-q', 'ralph/x');
    await git(clone, 'update-ref', '-d', 'refs/heads/ralph/x');
    const deleted = await g.listRefs(clone);

    // Assess
    expect(refs.heads).toEqual(
      new Map([
        ['refs/heads/main', main],
        ['refs/heads/ralph/x', main],
      ]),
    );
    expect(refs.current).toBe('refs/heads/ralph/x');
    expect(refs.remotes.get('refs/remotes/origin/main')).toBe(main);
    expect(local.remotes.size).toBe(0);
    expect(detached.current).toBeUndefined();
    expect(deleted.current).toBeUndefined();
    expect(deleted.heads.has('refs/heads/ralph/x')).toBe(false);
    expect(await g.headRef(clone)).toBe('refs/heads/ralph/x');
  });

  it('reads the sha of its commit from the summary, on a detached HEAD or with nothing staged', async () => {
    // Prepare
    const path = await repo();
    await git(path, 'checkout', '-q', '--detach');

    // Act
    const detached = await g.commit(path, 'feat: detached', { allowEmpty: true, shaLength: 40 });
    await git(path, 'checkout', '-q', '-b', 'ralph/x');
    const empty = await g.commit(path, 'feat: [x] 0123456789012345678901234567890123456789] y', {
      allowEmpty: true,
      shaLength: 40,
    });

    // Assess
    expect(detached).toMatch(/^[0-9a-f]{40}$/);
    expect(await git(path, 'rev-parse', 'HEAD^')).toBe(detached);
    expect(empty).toBe(await git(path, 'rev-parse', 'HEAD'));
  });

  it('commits as ralph-cloud without any user configuration', async () => {
    // Prepare
    const path = await repo();
    await writeFile(join(path, 'a.txt'), 'changed\n');
    await g.addAll(path);

    // Act
    const sha = await g.commit(path, 'feat: US-001 - Title\n\nbody');

    // Assess
    expect((await git(path, 'log', '-1', '--format=%H|%an|%ae|%s|%b')).trim()).toBe(
      `${sha}|ralph-cloud|ralph-cloud@users.noreply.local|feat: US-001 - Title|body`,
    );
    expect(await readFile(join(path, '.git', 'config'), 'utf8')).not.toContain('ralph-cloud');
  });

  it('finds the default branch: origin/HEAD, else main or master, else the current branch', async () => {
    // Prepare
    const path = await repo();
    const clone = join(await tempDir(), 'clone');
    await g.clone(path, clone);
    await git(path, 'branch', '-m', 'main', 'trunk');

    // Act & Assess
    expect(await g.defaultBranch(clone)).toBe('main');
    expect(await g.defaultBranch(path)).toBe('trunk');
    await git(path, 'branch', 'master');
    expect(await g.defaultBranch(path)).toBe('master');
  });

  it('cleans untracked files but keeps ignored ones and the paths it is told to keep', async () => {
    // Prepare
    const path = await repo({ '.gitignore': 'node_modules/\n' });
    await mkdir(join(path, 'node_modules'));
    await writeFile(join(path, 'node_modules', 'dep.js'), '1');
    await mkdir(join(path, 'ralph', 'archive', 'old'), { recursive: true });
    await writeFile(join(path, 'ralph', 'progress.txt'), 'p');
    await writeFile(join(path, 'ralph', 'archive', 'old', 'prd.json'), '{}');
    await writeFile(join(path, 'ralph', 'stray.txt'), 's');
    await writeFile(join(path, 'progress.txt'), 'not the runner file');

    // Act
    await g.clean(path, ['ralph/progress.txt', 'ralph/archive/']);

    // Assess
    expect(await readFile(join(path, 'node_modules', 'dep.js'), 'utf8')).toBe('1');
    expect(await readFile(join(path, 'ralph', 'progress.txt'), 'utf8')).toBe('p');
    expect(await readFile(join(path, 'ralph', 'archive', 'old', 'prd.json'), 'utf8')).toBe('{}');
    await expect(readFile(join(path, 'ralph', 'stray.txt'))).rejects.toThrow();
    await expect(readFile(join(path, 'progress.txt'))).rejects.toThrow();
  });

  it('stages everything but the excluded paths, and commits aside without moving the branch', async () => {
    // Prepare
    const path = await repo();
    const head = await git(path, 'rev-parse', 'HEAD');
    await writeFile(join(path, 'new.txt'), 'n');
    await writeFile(join(path, 'prd.json'), '{}');
    await mkdir(join(path, 'archive'));
    await writeFile(join(path, 'archive', 'x.txt'), 'x');

    // Act
    await g.addAll(path, ['prd.json', 'archive/']);
    const staged = await g.stagedChange(path, head);
    const sha = await g.commitDetached(path, 'evidence');

    // Assess
    expect(staged.files).toEqual(['new.txt']);
    expect(await g.hasStagedChanges(path)).toBe(true);
    expect(await g.hasStagedChanges(path, ['new.txt'])).toBe(false);
    expect(await git(path, 'rev-parse', 'HEAD')).toBe(head);
    expect(await git(path, 'rev-parse', `${sha}^`)).toBe(head);
    expect(await g.filesChanged(path, head, sha)).toEqual(['new.txt']);
    expect(new TextDecoder().decode(await g.diff(path, head, sha, { binary: true }))).toContain(
      '+++ b/new.txt',
    );
  });

  it('lists and patches the staged change in one call: spaces, tabs, renames, binaries, exclusions', async () => {
    // Prepare
    const path = await repo();
    await writeFile(join(path, 'old name.txt'), 'a\nb\nc\nd\ne\nf\n');
    await writeFile(join(path, 'kept.txt'), 'k\n');
    await git(path, 'add', '--all');
    await git(path, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'base');
    const base = await git(path, 'rev-parse', 'HEAD');
    await git(path, 'mv', 'old name.txt', 'new\tname.txt');
    await writeFile(join(path, 'kept.txt'), 'k\nmore\n');
    await writeFile(join(path, 'image.bin'), Buffer.from([0, 1, 2, 255, 0]));
    await writeFile(join(path, 'progress.txt'), 'runner file\n');
    await g.addAll(path);

    // Act
    const change = await g.stagedChange(path, base, ['progress.txt'], { binary: true });
    const patch = Buffer.from(change.patch).toString('utf8');

    // Assess
    expect([...change.files].sort()).toEqual(['image.bin', 'kept.txt', 'new\tname.txt']);
    expect(patch.startsWith('diff --git ')).toBe(true);
    expect(patch).toContain('+more');
    expect(patch).toContain('GIT binary patch');
    expect(patch).not.toContain('progress.txt');
    // Replayable: the patch applied to base gives the index's tree.
    await git(path, 'reset', '--quiet', '--hard', base);
    await writeFile(join(path, 'change.patch'), change.patch);
    await git(path, 'apply', '--index', 'change.patch');
    expect(await readFile(join(path, 'kept.txt'), 'utf8')).toBe('k\nmore\n');
    expect([...(await readFile(join(path, 'image.bin')))]).toEqual([0, 1, 2, 255, 0]);
  });

  it('finds no staged change as no paths and an empty patch', async () => {
    // Prepare
    const path = await repo();
    const head = await git(path, 'rev-parse', 'HEAD');

    // Act
    const change = await g.stagedChange(path, head);

    // Assess
    expect(change.files).toEqual([]);
    expect(change.patch.byteLength).toBe(0);
  });

  it('sends the token as a header, never stores it, and keeps it out of errors', async () => {
    // Prepare
    const seen: IncomingHttpHeaders[] = [];
    const server: Server = createServer((request, response) => {
      seen.push(request.headers);
      response.writeHead(403).end('no');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const target = join(await tempDir(), 'clone');

    // Act
    const error = await g
      .clone(`http://127.0.0.1:${port}/repo.git`, target, 'sekrit-token')
      .catch((caught: unknown) => caught);
    await new Promise((resolve) => server.close(resolve));

    // Assess
    const expected = `Basic ${Buffer.from('x-access-token:sekrit-token').toString('base64')}`;
    expect(seen[0]?.authorization).toBe(expected);
    expect(error).toBeInstanceOf(g.GitError);
    expect(String((error as Error).message)).not.toContain('sekrit-token');
    expect(String((error as Error).message)).not.toContain(expected.slice(6));
  });

  it('pushes a branch and a side ref to origin', async () => {
    // Prepare
    const origin = await repo();
    const clone = join(await tempDir(), 'clone');
    await g.clone(origin, clone);
    await g.checkoutBranch(clone, 'ralph/feature', 'origin/main');
    await writeFile(join(clone, 'f.txt'), 'f');
    await g.addAll(clone);
    const sha = await g.commit(clone, 'feat: f');
    await g.updateRef(clone, 'refs/ralph/evidence/run-1/1', sha);

    // Act
    await g.push(clone, 'ralph/feature');
    await g.push(clone, 'refs/ralph/evidence/run-1/1');

    // Assess
    expect(await git(origin, 'rev-parse', 'ralph/feature')).toBe(sha);
    expect(await git(origin, 'rev-parse', 'refs/ralph/evidence/run-1/1')).toBe(sha);
    expect(await g.currentBranch(clone)).toBe('ralph/feature');
  });

  it('runs no hook or fsmonitor command the repository configures', async () => {
    // Prepare: what an agent could plant for the runner's next git command.
    const path = await repo();
    const out = await tempDir();
    const hook = `#!/bin/sh\nenv > "${out}/$(basename "$0").env"\n`;
    for (const name of ['post-commit', 'post-checkout', 'reference-transaction']) {
      await writeFile(join(path, '.git', 'hooks', name), hook);
      await chmod(join(path, '.git', 'hooks', name), 0o755);
    }
    await writeFile(join(out, 'fsmonitor.sh'), `#!/bin/sh\nenv > "${out}/fsmonitor.env"\n`);
    await chmod(join(out, 'fsmonitor.sh'), 0o755);
    await writeFile(
      join(path, '.git', 'config'),
      `${await readFile(join(path, '.git', 'config'), 'utf8')}[core]\n\tfsmonitor = ${out}/fsmonitor.sh\n`,
    );
    await writeFile(join(path, 'a.txt'), 'changed\n');

    // Act
    await g.statusPorcelain(path);
    await g.addAll(path);
    await g.commit(path, 'feat: x');
    await g.checkoutBranch(path, 'other', 'HEAD');

    // Assess
    await expect(access(join(out, 'post-commit.env'))).rejects.toThrow();
    await expect(access(join(out, 'post-checkout.env'))).rejects.toThrow();
    await expect(access(join(out, 'reference-transaction.env'))).rejects.toThrow();
    await expect(access(join(out, 'fsmonitor.env'))).rejects.toThrow();
  });

  it('stages the changes under the paths it is given, skipping ignored, missing and unchanged ones', async () => {
    // Prepare
    const path = await repo({ '.gitignore': '.last-branch\n', 'prd.json': '{}', 'other.txt': 'o' });
    await writeFile(join(path, '.last-branch'), 'ralph/x\n');
    await writeFile(join(path, 'progress.txt'), 'p');
    await mkdir(join(path, 'archive', 'old'), { recursive: true });
    await writeFile(join(path, 'archive', 'old', 'prd.json'), '{}');
    await writeFile(join(path, 'other.txt'), 'changed');

    // Act
    await g.addPaths(path, ['prd.json', 'progress.txt', '.last-branch', 'archive/', 'missing.txt']);

    // Assess
    expect(await git(path, 'diff', '--cached', '--name-only')).toBe(
      'archive/old/prd.json\nprogress.txt',
    );
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
    const heads = await g.branchHeads(path);
    await g.setHeadRef(path, 'refs/heads/main');

    // Assess
    expect(heads).toEqual(
      new Map([
        ['refs/heads/feature/x', second],
        ['refs/heads/main', first],
      ]),
    );
    expect(await g.isAncestor(path, first, second)).toBe(true);
    expect(await g.isAncestor(path, second, first)).toBe(false);
    expect(await g.headRef(path)).toBe('refs/heads/main');
    await git(path, 'checkout', '-q', '--detach');
    expect(await g.headRef(path)).toBeUndefined();
  });
});
