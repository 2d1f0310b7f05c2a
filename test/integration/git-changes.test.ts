import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commit, commitDetached } from '../../agent/git/commits.js';
import { diff, filesChanged, stagedChange } from '../../agent/git/diff.js';
import { clean } from '../../agent/git/reset.js';
import { addAll, addPaths, hasStagedChanges } from '../../agent/git/staging.js';
import { git } from '../support/git-repo.js';
import { at, useScratch } from '../support/git-scratch.js';

const { repo } = useScratch();

describe('Modules: git/staging, git/diff, git/commits, git/reset', () => {
  it('reads the sha of its commit from the summary, on a detached HEAD or with nothing staged', async () => {
    // Prepare
    const path = await repo();
    await git(path, 'checkout', '-q', '--detach');

    // Act
    const detached = await commit(at(path), 'feat: detached', { allowEmpty: true, shaLength: 40 });
    await git(path, 'checkout', '-q', '-b', 'ralph/x');
    const empty = await commit(at(path), 'feat: [x] 0123456789012345678901234567890123456789] y', {
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
    await addAll(at(path));

    // Act
    const sha = await commit(at(path), 'feat: US-001 - Title\n\nbody');

    // Assess
    expect((await git(path, 'log', '-1', '--format=%H|%an|%ae|%s|%b')).trim()).toBe(
      `${sha}|ralph-cloud|ralph-cloud@users.noreply.local|feat: US-001 - Title|body`,
    );
    expect(await readFile(join(path, '.git', 'config'), 'utf8')).not.toContain('ralph-cloud');
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
    await clean(at(path), ['ralph/progress.txt', 'ralph/archive/']);

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
    await addAll(at(path), ['prd.json', 'archive/']);
    const staged = await stagedChange(at(path), head);
    const sha = await commitDetached(at(path), 'evidence');

    // Assess
    expect(staged.files).toEqual(['new.txt']);
    expect(await hasStagedChanges(at(path))).toBe(true);
    expect(await hasStagedChanges(at(path), ['new.txt'])).toBe(false);
    expect(await git(path, 'rev-parse', 'HEAD')).toBe(head);
    expect(await git(path, 'rev-parse', `${sha}^`)).toBe(head);
    expect(await filesChanged(at(path), head, sha)).toEqual(['new.txt']);
    expect(new TextDecoder().decode(await diff(at(path), head, sha, { binary: true }))).toContain(
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
    await addAll(at(path));

    // Act
    const change = await stagedChange(at(path), base, ['progress.txt'], { binary: true });
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
    const change = await stagedChange(at(path), head);

    // Assess
    expect(change.files).toEqual([]);
    expect(change.patch.byteLength).toBe(0);
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
    await addPaths(at(path), [
      'prd.json',
      'progress.txt',
      '.last-branch',
      'archive/',
      'missing.txt',
    ]);

    // Assess
    expect(await git(path, 'diff', '--cached', '--name-only')).toBe(
      'archive/old/prd.json\nprogress.txt',
    );
  });
});
