import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runIteration } from '../../agent/runner.js';
import { git } from '../support/git-repo.js';
import {
  exists,
  isClean,
  scenario,
  startCommit,
  useRunnerScenarios,
} from '../support/runner-scenario.js';

useRunnerScenarios();

describe('Function: runIteration — when the agent touches the branches', () => {
  it('fails an agent that commits on another branch and leaves it checked out, and restores both', async () => {
    // Prepare
    const { runId, repo, deps } = await scenario({
      agent: [
        'git checkout -q main',
        'echo x > x.ts',
        'git add x.ts',
        'git -c user.name=a -c user.email=a@b.c commit -q -m "on main"',
      ].join(' && '),
      gates: [{ name: 'ok', command: 'true' }],
    });
    const mainBefore = await git(repo, 'rev-parse', 'main');

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('agent_failed');
    expect(result.cause).toBe(
      'the agent left branch main checked out, moved branch main; restored',
    );
    expect(result.commit).toBeUndefined();
    expect(await git(repo, 'rev-parse', 'main')).toBe(mainBefore);
    expect(await git(repo, 'symbolic-ref', 'HEAD')).toBe('refs/heads/ralph/demo');
    expect(await git(repo, 'rev-parse', 'HEAD')).toBe(await startCommit(repo));
    expect(await isClean(repo)).toBe(true);
    expect(await exists(join(repo, 'x.ts'))).toBe(false);
    const evidence = result.evidenceRef ?? '';
    expect(await git(repo, 'log', '-1', '--format=%s', `${evidence}^`)).toBe('on main');
    expect(await git(repo, 'show', `${evidence}:x.ts`)).toBe('x');
    expect(result.filesChanged).toContain('x.ts');
  });

  it("fails an agent that moves another branch, keeping that branch's new head aside", async () => {
    // Prepare
    const { runId, repo, deps } = await scenario({
      agent: [
        'git checkout -q main',
        'echo m > m.ts',
        'git add m.ts',
        'git -c user.name=a -c user.email=a@b.c commit -q -m "on main"',
        'git checkout -q ralph/demo',
        'echo x > x.ts',
      ].join(' && '),
      gates: [{ name: 'ok', command: 'true' }],
    });
    const mainBefore = await git(repo, 'rev-parse', 'main');

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('agent_failed');
    expect(result.cause).toBe('the agent moved branch main; restored');
    expect(await git(repo, 'rev-parse', 'main')).toBe(mainBefore);
    const moved = `refs/ralph/moved/${runId}/1/main`;
    expect(result.failureDetail).toContain(moved);
    expect(await git(repo, 'show', `${moved}:m.ts`)).toBe('m');
    expect(await git(repo, 'show', `${result.evidenceRef ?? ''}:x.ts`)).toBe('x');
    expect(await git(repo, 'branch', '--show-current')).toBe('ralph/demo');
    expect(await isClean(repo)).toBe(true);
  });

  it('fails an agent that leaves HEAD detached, and checks the run branch out again', async () => {
    // Prepare
    const { runId, repo, deps } = await scenario({
      agent: 'echo x > x.ts && git checkout -q --detach',
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('agent_failed');
    expect(result.cause).toBe('the agent left HEAD detached; restored');
    expect(await git(repo, 'symbolic-ref', 'HEAD')).toBe('refs/heads/ralph/demo');
    expect(await git(repo, 'show', `${result.evidenceRef ?? ''}:x.ts`)).toBe('x');
    expect(await isClean(repo)).toBe(true);
  });

  it('fails an agent that deletes the run branch, and recreates it', async () => {
    // Prepare
    const { runId, repo, deps } = await scenario({
      agent: 'echo x > x.ts && git update-ref -d refs/heads/ralph/demo',
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('agent_failed');
    expect(result.cause).toBe('the agent deleted branch ralph/demo; restored');
    expect(await git(repo, 'branch', '--show-current')).toBe('ralph/demo');
    expect(await git(repo, 'rev-parse', 'ralph/demo')).toBe(await startCommit(repo));
    expect(await git(repo, 'show', `${result.evidenceRef ?? ''}:x.ts`)).toBe('x');
    expect(await isClean(repo)).toBe(true);
  });

  it('fails an agent that rewinds the run branch below where the iteration started', async () => {
    // Prepare
    const { runId, repo, deps } = await scenario({
      agent: 'git reset -q --hard main && echo x > x.ts',
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('agent_failed');
    expect(result.cause).toMatch(
      /^the agent rewrote branch ralph\/demo \(\w+ is no longer in its history\); restored$/,
    );
    expect(await git(repo, 'rev-parse', 'ralph/demo')).toBe(await startCommit(repo));
    expect(await git(repo, 'log', '-1', '--format=%s', 'ralph/demo')).toBe(
      'chore(ralph): start ralph/demo',
    );
  });

  it('fails the iteration when the gates leave another branch checked out', async () => {
    // Prepare
    const { runId, repo, deps } = await scenario({
      agent: 'echo x > x.ts',
      gates: [{ name: 'sneaky', command: 'git checkout -q -b elsewhere' }],
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('gates_failed');
    expect(result.cause).toBe('the gates left branch elsewhere checked out; restored');
    expect(result.commit).toBeUndefined();
    expect(await git(repo, 'branch', '--show-current')).toBe('ralph/demo');
    expect(await git(repo, 'rev-parse', 'ralph/demo')).toBe(await startCommit(repo));
  });

  it('lets the agent commit on the run branch and add tags and branches of its own', async () => {
    // Prepare
    const { runId, repo, deps } = await scenario({
      agent: [
        'echo x > x.ts',
        'git add x.ts',
        'git -c user.name=a -c user.email=a@b.c commit -q -m "agent commit"',
        'git tag agent-tag',
        'git branch agent-branch',
      ].join(' && '),
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('passed');
    expect(await git(repo, 'log', '-1', '--format=%s', `${result.commit ?? ''}^`)).toBe(
      'agent commit',
    );
    expect(await git(repo, 'rev-parse', 'agent-tag^{commit}')).toBe(
      await git(repo, 'rev-parse', `${result.commit ?? ''}^`),
    );
    expect(await git(repo, 'branch', '--list', 'agent-branch')).toContain('agent-branch');
  });
});
