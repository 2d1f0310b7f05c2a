import { readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exists } from '../../agent/working-copy/optional-files.js';
import { isGroupRunning } from '../../agent/process/process.js';
import { git } from '../support/git-repo.js';
import {
  copying,
  runSuite,
  status,
  story,
  suite,
  useSuiteScratch,
} from '../support/suite-fixtures.js';

const { tempDir, repository, fixtures } = useSuiteScratch();

describe('Function: runEvaluationSuite', () => {
  it('reports a failing suite as failed and still keeps what it wrote', async () => {
    // Prepare
    const repo = await repository();
    const from = await fixtures({ 'a.json': story('S-1') });

    // Act
    const run = await runSuite({
      dir: repo,
      suite: suite({ command: `${copying(from)} && echo "input 2 crashed" >&2 && exit 3` }),
    });

    // Assess
    expect(run).toMatchObject({ status: 'failed', exitCode: 3, outputTail: 'input 2 crashed' });
    expect(run.documents.map(({ id }) => id)).toEqual(['S-1']);
    expect(run.problems).toEqual(['the suite exited 3']);
  });

  it('ends the whole process group on timeout and keeps what was written before', async () => {
    // Prepare
    const repo = await repository();
    const from = await fixtures({ 'a.json': story('S-1') });
    const pidFile = join(await tempDir('pid'), 'pid');
    const command = `echo $$ > "${pidFile}"; ${copying(from)}; echo started; sleep 100 & sleep 100`;

    // Act
    const run = await runSuite({
      dir: repo,
      suite: suite({ command, timeoutSeconds: 1 }),
      killGraceMs: 200,
    });

    // Assess
    expect(run).toMatchObject({ status: 'timed_out', exitCode: null, outputTail: 'started' });
    expect(run.durationMs).toBeGreaterThanOrEqual(1_000);
    expect(run.durationMs).toBeLessThan(3_000);
    expect(run.problems).toEqual(['the suite timed out after 1s; its processes were ended']);
    expect(run.documents.map(({ id }) => id)).toEqual(['S-1']);
    const pid = Number((await readFile(pidFile, 'utf8')).trim());
    expect(await isGroupRunning(pid)).toBe(false);
    expect(await status(repo)).toBe('');
  });

  it('stops the suite when aborted', async () => {
    // Prepare
    const repo = await repository();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);

    // Act
    const run = await runSuite({
      dir: repo,
      suite: suite({ command: 'sleep 100' }),
      signal: controller.signal,
      killGraceMs: 200,
    });

    // Assess
    expect(run.status).toBe('failed');
    expect(run.durationMs).toBeLessThan(3_000);
    expect(run.problems[0]).toBe(
      'the suite was stopped (the run was cancelled or the runner told to stop)',
    );
  });

  it.each([
    ['../outside', 'is outside the repository'],
    ['a/../../outside', 'is outside the repository'],
    ['/tmp/ralph-absolute-eval', 'must be relative to the repository root'],
    ['.', 'is the repository root'],
    ['.git/eval', "is inside the repository's .git"],
  ])('refuses outputDir %s without running the suite', async (outputDir, why) => {
    // Prepare
    const repo = await repository();
    const marker = join(await tempDir('marker'), 'ran');

    // Act
    const run = await runSuite({
      dir: repo,
      suite: suite({ command: `touch "${marker}"`, outputDir }),
    });

    // Assess
    expect(run).toMatchObject({ status: 'failed', documents: [], exitCode: null });
    expect(run.problems).toEqual([`outputDir "${outputDir}" ${why}; the suite was not run`]);
    expect(await exists(marker)).toBe(false);
    expect(await status(repo)).toBe('');
  });

  it('refuses an outputDir reached through a symbolic link that leads out of the repository', async () => {
    // Prepare
    const outside = await tempDir('outside');
    await writeFile(join(outside, 'precious.txt'), 'keep me');
    const repo = await repository();
    await symlink(outside, join(repo, 'link'));
    await git(repo, 'add', 'link');
    await git(repo, '-c', 'user.name=t', '-c', 'user.email=t@e.invalid', 'commit', '-qm', 'link');

    // Act
    const run = await runSuite({
      dir: repo,
      suite: suite({ command: 'true', outputDir: 'link/eval' }),
    });

    // Assess
    expect(run.status).toBe('failed');
    expect(run.problems).toEqual([
      'outputDir "link/eval" leads out of the repository through a symbolic link; the suite was not run',
    ]);
    expect(await readFile(join(outside, 'precious.txt'), 'utf8')).toBe('keep me');
  });

  it('empties an output dir that already holds files, and removes the directories it made', async () => {
    // Prepare
    const repo = await repository({ 'build/eval/stale.json': story('S-0') });
    const from = await fixtures({ 'a.json': story('S-1') });

    // Act
    const run = await runSuite({
      dir: repo,
      suite: suite({ command: copying(from), outputDir: 'build/eval' }),
    });
    const nested = await runSuite({
      dir: repo,
      suite: suite({ command: copying(from), outputDir: 'fresh/deeper/eval' }),
    });

    // Assess
    expect(run.documents.map(({ id }) => id)).toEqual(['S-1']);
    // The committed stale document is put back: the working copy is as the commit left it.
    expect(await readFile(join(repo, 'build/eval/stale.json'), 'utf8')).toBe(story('S-0'));
    expect(run.problems).toEqual([
      'the suite left the working tree changed (build/eval/stale.json); restored',
    ]);
    expect(nested).toMatchObject({ status: 'ok', problems: [] });
    expect(await exists(join(repo, 'fresh'))).toBe(false);
    expect(await status(repo)).toBe('');
  });

  it('puts back the files, HEAD and branch the suite changed, and keeps ignored files', async () => {
    // Prepare
    const repo = await repository();
    const head = await git(repo, 'rev-parse', 'HEAD');
    const command = [
      'mkdir -p node_modules && echo cache > node_modules/cache.txt',
      'echo changed >> README.md',
      'echo junk > junk.txt && mkdir -p tmp && echo junk > tmp/junk.txt',
      'git add junk.txt && git -c user.name=s -c user.email=s@e.invalid commit -qm suite',
      'echo more >> README.md',
    ].join(' && ');

    // Act
    const run = await runSuite({ dir: repo, suite: suite({ command }) });

    // Assess
    expect(run.status).toBe('ok');
    expect(run.problems).toEqual([
      'the suite wrote no *.json documents to .ralph-eval',
      expect.stringMatching(
        /^the suite moved HEAD \(main at [0-9a-f]{12} → main at [0-9a-f]{12}\); restored$/,
      ),
      'the suite left the working tree changed (README.md, tmp/junk.txt); restored',
    ]);
    expect(await git(repo, 'rev-parse', 'HEAD')).toBe(head);
    expect(await git(repo, 'symbolic-ref', 'HEAD')).toBe('refs/heads/main');
    expect(await status(repo)).toBe('');
    expect(await readFile(join(repo, 'README.md'), 'utf8')).toBe('# demo\n');
    expect(await readFile(join(repo, 'node_modules/cache.txt'), 'utf8')).toBe('cache\n');
  });

  it('only reports what the suite changed in a tree that was not clean before', async () => {
    // Prepare
    const repo = await repository();
    await writeFile(join(repo, 'mine.txt'), 'uncommitted work\n');

    // Act
    const run = await runSuite({
      dir: repo,
      suite: suite({ command: 'echo changed >> README.md' }),
    });

    // Assess
    expect(run.problems).toContain('the suite left the working tree changed (README.md)');
    expect(await readFile(join(repo, 'mine.txt'), 'utf8')).toBe('uncommitted work\n');
    expect(await readFile(join(repo, 'README.md'), 'utf8')).toBe('# demo\nchanged\n');
  });
});
