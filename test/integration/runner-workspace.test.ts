import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runIteration } from '../../agent/runner.js';
import { newProgressLog } from '../../lambdas/core/ralph/progress-log.js';
import type { Prd } from '../../lambdas/core/schemas/prd.js';
import { git, makePrd } from '../support/git-repo.js';
import {
  exists,
  isClean,
  NOW,
  planIteration,
  scenario,
  tempDir,
  useRunnerScenarios,
} from '../support/runner-scenario.js';

useRunnerScenarios();

describe('Function: runIteration — the working copy', () => {
  it('refuses a missing repository, naming the path', async () => {
    // Prepare
    const { runId, out, deps } = await scenario({
      agent: 'touch "$OUT/agent-ran"',
      repo: (path) => ({ kind: 'local', path: `${path}-gone` }),
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('workspace_missing');
    expect(result.cause).toMatch(/-gone does not exist$/);
    expect(await exists(join(out, 'agent-ran'))).toBe(false);
    expect(Object.keys(result.artefacts).sort()).toEqual(['plan', 'result']);
  });

  it('refuses a directory that is not a git repository', async () => {
    // Prepare
    const plain = await tempDir('plain');
    const { runId, deps } = await scenario({
      agent: 'true',
      repo: () => ({ kind: 'local', path: plain }),
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('workspace_missing');
    expect(result.cause).toContain('is not the top of a git working tree');
  });

  it('refuses a subdirectory of a repository', async () => {
    // Prepare
    const { runId, out, deps } = await scenario({
      agent: 'touch "$OUT/agent-ran"',
      files: { 'sub/keep.txt': 'k\n' },
      repo: (path) => ({ kind: 'local', path: join(path, 'sub') }),
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('workspace_missing');
    expect(result.cause).toMatch(/\/sub is not the top of a git working tree$/);
    expect(await exists(join(out, 'agent-ran'))).toBe(false);
  });

  it('refuses a repository whose config puts its working tree elsewhere', async () => {
    // Prepare
    const elsewhere = await tempDir('elsewhere');
    const { runId, out, deps } = await scenario({
      agent: 'touch "$OUT/agent-ran"',
      prepareRepo: (path) => git(path, 'config', 'core.worktree', elsewhere).then(() => undefined),
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('workspace_missing');
    expect(result.cause).toContain('is not the top of a git working tree');
    expect(await exists(join(out, 'agent-ran'))).toBe(false);
  });

  it('works in a linked worktree', async () => {
    // Prepare
    const linked = join(await tempDir('linked'), 'tree');
    const { runId, repo, deps } = await scenario({
      agent: 'echo x > x.ts',
      repo: () => ({ kind: 'local', path: linked }),
      prepareRepo: (path) =>
        git(path, 'worktree', 'add', '-q', linked, '-b', 'side').then(() => undefined),
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('passed');
    expect(await git(linked, 'branch', '--show-current')).toBe('ralph/demo');
    expect(await git(repo, 'rev-parse', 'ralph/demo')).toBe(result.commit);
  });

  it("refuses a dirty working tree, listing the paths, but not for the runner's own files", async () => {
    // Prepare
    const dirty = await scenario({ agent: 'touch "$OUT/agent-ran"' });
    await writeFile(join(dirty.repo, 'README.md'), 'edited\n');
    await writeFile(join(dirty.repo, 'stray.txt'), 'stray\n');
    const ownFiles = await scenario({ agent: 'echo x > x.ts' });
    await writeFile(join(ownFiles.repo, 'progress.txt'), newProgressLog(NOW));
    await writeFile(join(ownFiles.repo, '.last-branch'), 'ralph/demo\n');

    // Act
    const refused = await runIteration(dirty.deps, { runId: dirty.runId, iteration: 1 });
    const accepted = await runIteration(ownFiles.deps, { runId: ownFiles.runId, iteration: 1 });

    // Assess
    expect(refused.outcome).toBe('workspace_dirty');
    expect(refused.cause).toContain('M README.md');
    expect(refused.cause).toContain('?? stray.txt');
    expect(await exists(join(dirty.out, 'agent-ran'))).toBe(false);
    expect(await readFile(join(dirty.repo, 'stray.txt'), 'utf8')).toBe('stray\n');
    expect(accepted.outcome).toBe('passed');
  });

  it('creates the run branch from the default branch when it is missing', async () => {
    // Prepare
    const { runId, repo, deps } = await scenario({ agent: 'echo x > x.ts' });
    const main = await git(repo, 'rev-parse', 'main');
    await git(repo, 'checkout', '-q', '-b', 'other');
    await writeFile(join(repo, 'other.txt'), 'other\n');
    await git(repo, 'add', 'other.txt');
    await git(repo, '-c', 'user.name=t', '-c', 'user.email=t@t.t', 'commit', '-q', '-m', 'other');

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('passed');
    expect(await git(repo, 'branch', '--show-current')).toBe('ralph/demo');
    expect(await git(repo, 'rev-parse', `${result.commit ?? ''}^^`)).toBe(main);
    expect(await exists(join(repo, 'other.txt'))).toBe(false);
  });

  it("archives the previous run's files when .last-branch names another branch", async () => {
    // Prepare
    const oldProgress =
      '# Ralph Progress Log\nStarted: earlier\n---\n\n## 2025-01-01 10:00 - OLD-1\n- old work\n---\n';
    const { runId, repo, deps } = await scenario({
      agent: 'echo x > x.ts',
      files: { 'progress.txt': oldProgress, '.last-branch': 'ralph/old-feature\n' },
    });
    const oldPrd = await readFile(join(repo, 'prd.json'), 'utf8');

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('passed');
    const archive = join(repo, 'archive', '2025-01-15-old-feature');
    expect(await readFile(join(archive, 'progress.txt'), 'utf8')).toBe(oldProgress);
    expect(await readFile(join(archive, 'prd.json'), 'utf8')).toBe(oldPrd);
    const progress = await readFile(join(repo, 'progress.txt'), 'utf8');
    expect(progress.startsWith(newProgressLog(NOW))).toBe(true);
    expect(progress).not.toContain('OLD-1');
    expect(await readFile(join(repo, '.last-branch'), 'utf8')).toBe('ralph/demo\n');
    expect(await isClean(repo)).toBe(true);
  });

  it('archives on a later iteration when the first did not get that far, and only once', async () => {
    // Prepare: iteration 1 never reached the working copy (say the tree was dirty).
    const oldProgress = '# Ralph Progress Log\nStarted: earlier\n---\n';
    const prd = makePrd(2);
    const { runId, repo, deps } = await scenario({
      prd,
      agent: 'echo "$RALPH_ITERATION" > x.ts',
      iteration: 2,
      files: { 'progress.txt': oldProgress, '.last-branch': 'ralph/old-feature\n' },
    });
    await planIteration(runId, prd, 3);

    // Act
    const second = await runIteration(deps, { runId, iteration: 2 });
    const third = await runIteration(deps, { runId, iteration: 3 });

    // Assess
    expect([second.outcome, third.outcome]).toEqual(['passed', 'passed']);
    expect(await readdir(join(repo, 'archive'))).toEqual(['2025-01-15-old-feature']);
    expect(
      await readFile(join(repo, 'archive', '2025-01-15-old-feature', 'progress.txt'), 'utf8'),
    ).toBe(oldProgress);
    expect(await readFile(join(repo, '.last-branch'), 'utf8')).toBe('ralph/demo\n');
    const subjects = (await git(repo, 'log', '--format=%s')).split('\n');
    expect(subjects).toEqual([
      'feat: US-001 - Story 1',
      'feat: US-001 - Story 1',
      'chore(ralph): archive ralph/old-feature and start ralph/demo',
      'initial',
    ]);
  });

  it('commits the archive before the agent runs, so a failed first iteration of a clone keeps it', async () => {
    // Prepare
    const oldProgress = '# Ralph Progress Log\nStarted: earlier\n---\n- old work\n';
    const prd = makePrd(2);
    const { runId, repo, deps } = await scenario({
      prd,
      agent: 'if [ "$RALPH_ITERATION" = 1 ]; then echo wip > wip.ts; exit 1; fi; echo x > x.ts',
      repo: (path) => ({ kind: 'git', url: `${path}/.git` }),
      files: { 'progress.txt': oldProgress, '.last-branch': 'ralph/old-feature\n' },
    });
    const oldPrd = await readFile(join(repo, 'prd.json'), 'utf8');
    await planIteration(runId, prd, 2);

    // Act
    const first = await runIteration(deps, { runId, iteration: 1 });
    const afterFirst = await git(repo, 'rev-parse', 'ralph/demo').catch(() => 'no branch');
    const second = await runIteration(deps, { runId, iteration: 2 });

    // Assess: the archive commit reached the remote although iteration 1 failed...
    expect(first.outcome).toBe('agent_failed');
    expect(await git(repo, 'log', '-1', '--format=%s', afterFirst)).toBe(
      'chore(ralph): archive ralph/old-feature and start ralph/demo',
    );
    expect(
      await git(repo, 'show', `${afterFirst}:archive/2025-01-15-old-feature/progress.txt`),
    ).toBe(oldProgress.trimEnd());
    expect(await git(repo, 'show', `${afterFirst}:archive/2025-01-15-old-feature/prd.json`)).toBe(
      oldPrd.trimEnd(),
    );
    expect(await git(repo, 'show', `${afterFirst}:.last-branch`)).toBe('ralph/demo');
    // ...and iteration 2, in a fresh clone, builds on it without archiving again.
    expect(second.outcome).toBe('passed');
    expect(await git(repo, 'rev-parse', 'ralph/demo')).toBe(second.commit);
    expect(await git(repo, 'rev-parse', `${second.commit ?? ''}^`)).toBe(afterFirst);
    expect(await git(repo, 'ls-tree', '--name-only', 'ralph/demo:archive')).toBe(
      '2025-01-15-old-feature',
    );
    expect(await readdir(deps.workspaceRoot ?? '')).toEqual([]);
  });

  it("starts a new run branch with the user's prd.json and archives what the previous run left", async () => {
    // Prepare: a run on ralph/first left its prd.json (story done) and progress.txt there;
    // the user then committed the next prd.json (for ralph/demo) on ralph/first. The default
    // branch still has the prd.json ralph/first started from.
    const commitAll = (path: string, message: string) =>
      git(path, '-c', 'user.name=t', '-c', 'user.email=t@t.t', 'commit', '-q', '-am', message);
    const firstPrd = (passes: boolean) =>
      `${JSON.stringify(
        makePrd(1, {
          branchName: 'ralph/first',
          userStories: [{ ...makePrd(1).userStories[0]!, id: 'F-1', passes }],
        }),
        null,
        2,
      )}\n`;
    const firstProgress = '# Ralph Progress Log\nStarted: earlier\n---\n- F-1 done\n';
    const { runId, repo, deps } = await scenario({
      agent: 'echo x > x.ts',
      files: { 'prd.json': firstPrd(false) },
      prepareRepo: async (path, prdText) => {
        await git(path, 'checkout', '-q', '-b', 'ralph/first');
        await writeFile(join(path, 'prd.json'), firstPrd(true));
        await writeFile(join(path, 'progress.txt'), firstProgress);
        await writeFile(join(path, '.last-branch'), 'ralph/first\n');
        await git(path, 'add', 'progress.txt', '.last-branch');
        await commitAll(path, 'feat: F-1');
        await writeFile(join(path, 'prd.json'), prdText);
        await commitAll(path, 'prd for ralph/demo');
      },
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('passed');
    const prd = JSON.parse(await git(repo, 'show', 'ralph/demo:prd.json')) as Prd;
    expect(prd.branchName).toBe('ralph/demo');
    expect(prd.userStories.map((story) => story.passes)).toEqual([true, false]);
    const archive = join(repo, 'archive', '2025-01-15-first');
    expect(await readFile(join(archive, 'prd.json'), 'utf8')).toBe(firstPrd(true));
    expect(await readFile(join(archive, 'progress.txt'), 'utf8')).toBe(firstProgress);
    expect(await isClean(repo)).toBe(true);
  });

  it("keeps prd.json and progress.txt that only the user's branch has when the run branch is created", async () => {
    // Prepare: prd.json and progress.txt are committed on `dev`, where the user sits; `main`
    // has neither, and the run branch is created from `main`.
    const devProgress = '# Ralph Progress Log\nStarted: earlier\n---\n- dev notes\n';
    const { runId, repo, deps } = await scenario({
      agent: 'echo x > x.ts',
      commitPrd: false,
      prepareRepo: async (path, prdText) => {
        await git(path, 'checkout', '-q', '-b', 'dev');
        await writeFile(join(path, 'prd.json'), prdText);
        await writeFile(join(path, 'progress.txt'), devProgress);
        await git(path, 'add', 'prd.json', 'progress.txt');
        await git(path, '-c', 'user.name=t', '-c', 'user.email=t@t.t', 'commit', '-q', '-m', 'prd');
      },
    });
    const main = await git(repo, 'rev-parse', 'main');

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('passed');
    expect(await git(repo, 'branch', '--show-current')).toBe('ralph/demo');
    expect(await git(repo, 'rev-parse', `${result.commit ?? ''}^^`)).toBe(main);
    const prd = JSON.parse(await git(repo, 'show', 'ralph/demo:prd.json')) as Prd;
    expect(prd.userStories.map((story) => story.passes)).toEqual([true, false]);
    const progress = await git(repo, 'show', 'ralph/demo:progress.txt');
    expect(progress.startsWith(devProgress)).toBe(true);
    expect(progress).toContain('## 2025-01-15 12:34 - US-001');
    expect(await isClean(repo)).toBe(true);
  });
});
