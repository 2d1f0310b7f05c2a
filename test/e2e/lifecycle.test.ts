import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';
import { requestCancel, resumeRun } from '../../lambdas/core/steps/lifecycle.js';
import { openLocalStack } from '../../local/local-stack.js';
import { git, makeGitRepo, makePrd } from '../support/git-repo.js';
import { useReposWithPrd } from '../support/repos-with-prd.js';
import { readRun, runToEnd, submitLocalRun, waitUntil } from '../support/local-runs.js';
import { useLocalStack, WRITING_AGENT } from '../support/e2e-stack.js';

describe('Run loop: pause, resume, cancel, segments', () => {
  const stack = useLocalStack();
  const repoWithPrd = useReposWithPrd();

  it('pauses on a dirty working tree, and resume finishes the run in segment 2', async () => {
    // Prepare: uncommitted work of the user's in a tracked file.
    const { repo, prd } = await repoWithPrd(2, { 'notes.md': 'mine\n' });
    await writeFile(join(repo, 'notes.md'), 'work in progress\n');

    // Act 1
    const runId = await submitLocalRun(stack(), {
      repo,
      prd,
      config: { agent: { command: WRITING_AGENT } },
    });
    const paused = await runToEnd(stack(), runId);

    // Assess 1: paused, the user's change untouched.
    expect(paused.run.status).toBe('paused');
    expect(paused.run.stopReason).toMatch(/uncommitted changes.*notes\.md/s);
    expect(paused.iterations.map((it) => it.outcome)).toEqual(['workspace_dirty']);
    expect(await git(repo, 'status', '--porcelain')).toContain('notes.md');

    // Act 2: the user commits their work, then resumes.
    await git(
      repo,
      '-c',
      'user.name=u',
      '-c',
      'user.email=u@example.invalid',
      'commit',
      '-qam',
      'wip',
    );
    const { segment } = await resumeRun({ ...stack().deps, executions: stack().executions }, runId);
    const done = await runToEnd(stack(), runId);

    // Assess 2
    expect(segment).toBe(2);
    expect(done.run).toMatchObject({ status: 'completed', segment: 2, storiesPassed: 2 });
    expect(done.iterations.map((it) => [it.segment, it.outcome])).toEqual([
      [1, 'workspace_dirty'],
      [2, 'passed'],
      [2, 'passed'],
    ]);
  });

  it('refuses to resume a run that has ended', async () => {
    const { repo, prd } = await repoWithPrd(1);
    const runId = await submitLocalRun(stack(), {
      repo,
      prd,
      config: { agent: { command: WRITING_AGENT } },
    });
    await runToEnd(stack(), runId);

    await expect(
      resumeRun({ ...stack().deps, executions: stack().executions }, runId),
    ).rejects.toThrow(/has ended \(completed\)/);
  });

  it('cancel stops the agent mid-iteration and ends the run as cancelled', async () => {
    // Prepare
    const { repo, prd } = await repoWithPrd(2);
    const runId = await submitLocalRun(stack(), {
      repo,
      prd,
      config: { agent: { command: 'cat > /dev/null; echo started > started.txt; sleep 30' } },
    });
    await waitUntil(async () => existsSync(join(repo, 'started.txt')));

    // Act: what `ralph cancel` does from another process.
    const started = Date.now();
    await requestCancel(stack().deps, runId);
    const { run, iterations } = await runToEnd(stack(), runId);

    // Assess
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(run.status).toBe('cancelled');
    expect(iterations.map((it) => it.outcome)).toEqual(['cancelled']);
    expect(iterations[0]!.evidenceRef).toBeDefined();
    // The agent's change is reset (the runner's own files were committed before it ran).
    expect(await git(repo, 'status', '--porcelain')).toBe('');
  });

  it('cancelling a paused run ends it at once', async () => {
    const { repo, prd } = await repoWithPrd(1, { 'a.txt': 'a\n' });
    await writeFile(join(repo, 'a.txt'), 'changed\n');
    const runId = await submitLocalRun(stack(), {
      repo,
      prd,
      config: { agent: { command: WRITING_AGENT } },
    });
    await runToEnd(stack(), runId);

    const run = await requestCancel(stack().deps, runId);

    expect(run.status).toBe('cancelled');
    await expect(requestCancel(stack().deps, runId)).rejects.toThrow(/already ended/);
  });

  it('continues in a new execution every N iterations', async () => {
    const { repo, prd } = await repoWithPrd(3);

    const runId = await submitLocalRun(stack(), {
      repo,
      prd,
      config: { agent: { command: WRITING_AGENT }, limits: { iterationsPerSegment: 1 } },
    });
    const { run, iterations } = await runToEnd(stack(), runId);

    expect(run).toMatchObject({ status: 'completed', segment: 3 });
    expect(iterations.map((it) => it.segment)).toEqual([1, 2, 3]);
  });
});

describe('Run loop: one step advances the loop', () => {
  it('InitRun plans the first iteration, and Advance records each and plans the next', async () => {
    // Prepare
    const ran: string[] = [];
    const stack = await openLocalStack({
      retryIntervalMs: 0,
      onStep: (event) => {
        if (!event.error) ran.push(event.state);
      },
    });
    const prd = makePrd(3);
    const repo = await makeGitRepo({ 'prd.json': `${JSON.stringify(prd, null, 2)}\n` });
    try {
      // Act
      const runId = await submitLocalRun(stack, {
        repo: repo.path,
        prd,
        config: { agent: { command: WRITING_AGENT } },
      });
      const { run, iterations } = await runToEnd(stack, runId);

      // Assess: every iteration ran from its own plan.json, in order, one segment.
      const count = (state: string) => ran.filter((name) => name === state).length;
      expect(run).toMatchObject({ status: 'completed', iterationsStarted: 3, segment: 1 });
      expect(iterations.map((it) => [it.iteration, it.taskId, it.outcome])).toEqual([
        [1, 'US-001', 'passed'],
        [2, 'US-002', 'passed'],
        [3, 'US-003', 'passed'],
      ]);
      expect([count('InitRun'), count('RunAgent'), count('Advance')]).toEqual([1, 3, 3]);
      // No other task: nothing plans, records or decides apart.
      expect(new Set(ran)).toEqual(new Set(['InitRun', 'RunAgent', 'Advance', 'FinalizeRun']));
      for (const { iteration, artefacts } of iterations)
        expect(artefacts.plan).toBe(artefactKeys.iteration(runId, iteration, 'plan.json'));
    } finally {
      await stack.close();
      await repo.cleanup();
    }
  });
});

describe('Run loop: a run survives a restart of the CLI', () => {
  let dataDir: string;
  const cleanups: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'ralph-restart-'));
  });
  afterAll(async () => {
    await Promise.all(cleanups.map((cleanup) => cleanup()));
    await rm(dataDir, { recursive: true, force: true });
  });

  it('is read back after the process that ran it stopped mid-iteration, and resume finishes it', async () => {
    // Prepare: story 1 passes, story 2's agent is slow; the "CLI" stops during it.
    const prd = makePrd(2);
    const repo = await makeGitRepo({ 'prd.json': `${JSON.stringify(prd, null, 2)}\n` });
    cleanups.push(repo.cleanup);
    const agent = `cat > /dev/null; if [ "$RALPH_ITERATION" = 2 ]; then sleep 30; fi; ${WRITING_AGENT}`;
    const first = await openLocalStack({ dataDir, retryIntervalMs: 0, cancelPollMs: 100 });
    const runId = await submitLocalRun(first, {
      repo: repo.path,
      prd,
      config: { agent: { command: agent } },
    });
    await waitUntil(
      async () => (await first.deps.runs.getIteration(runId, 2))?.status === 'running',
    );

    // Act 1: the process goes away (Ctrl-C closes the stack).
    await first.close();
    const second = await openLocalStack({ dataDir, retryIntervalMs: 0 });
    try {
      const stored = await readRun(second, runId);

      // Assess 1: everything recorded before the stop is there.
      expect(stored.run.status).toBe('running');
      expect(stored.iterations.map((it) => it.outcome)).toEqual(['passed', undefined]);

      // Act 2
      await resumeRun({ ...second.deps, executions: second.executions }, runId, {
        allowRunning: !(await second.isRunLive(runId)),
      });
      const done = await runToEnd(second, runId);

      // Assess 2: the interrupted iteration is recorded, its number not reused.
      // (resumed below; a cancel here would have ended it at once, see the next test)
      expect(done.run.status).toBe('completed');
      expect(done.iterations.map((it) => [it.iteration, it.outcome])).toEqual([
        [1, 'passed'],
        [2, 'interrupted'],
        [3, 'passed'],
      ]);
    } finally {
      await second.close();
    }
  });

  it('cancel after the process died ends the run at once, closing its open iteration', async () => {
    // Prepare
    const prd = makePrd(1);
    const repo = await makeGitRepo({ 'prd.json': `${JSON.stringify(prd, null, 2)}\n` });
    cleanups.push(repo.cleanup);
    const dir = join(dataDir, 'cancel-after-death');
    const first = await openLocalStack({ dataDir: dir, retryIntervalMs: 0 });
    const runId = await submitLocalRun(first, {
      repo: repo.path,
      prd,
      config: { agent: { command: 'cat > /dev/null; sleep 30' } },
    });
    await waitUntil(
      async () => (await first.deps.runs.getIteration(runId, 1))?.status === 'running',
    );
    await first.close();

    // Act: `ralph cancel` in a new process, which owns the store.
    const second = await openLocalStack({ dataDir: dir });
    try {
      const run = await requestCancel(second.deps, runId, {
        noLiveExecution: !(await second.isRunLive(runId)),
      });

      // Assess
      expect(run.status).toBe('cancelled');
      const { iterations } = await readRun(second, runId);
      expect(iterations.map((it) => it.outcome)).toEqual(['interrupted']);
    } finally {
      await second.close();
    }
  });
});
