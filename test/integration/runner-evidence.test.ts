import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runIteration } from '../../agent/runner.js';
import { newProgressLog } from '../../lambdas/core/ralph/progress-log.js';
import type { IterationResult } from '../../lambdas/core/schemas/iteration-result.js';
import type { Prd } from '../../lambdas/core/schemas/prd.js';
import { git } from '../support/git-repo.js';
import {
  artefact,
  exists,
  isClean,
  NOW,
  scenario,
  startCommit,
  useRunnerScenarios,
} from '../support/runner-scenario.js';
import { isProcessRunning } from '../support/spawners.js';

useRunnerScenarios();

describe('Function: runIteration — a change that does not count', () => {
  it('resets a change whose gates fail and keeps it as evidence', async () => {
    // Prepare
    const { runId, repo, deps } = await scenario({
      agent: [
        'echo changed >> README.md',
        'echo "export {}" > committed.ts',
        'git add committed.ts',
        'git -c user.name=a -c user.email=a@b.c commit -q -m wip',
        'echo new > untracked.ts',
      ].join(' && '),
      gates: [
        { name: 'test', command: 'echo "expected 1, got 2" >&2; exit 1' },
        { name: 'lint', command: 'exit 1', blocking: false },
      ],
    });
    const prdBefore = await readFile(join(repo, 'prd.json'), 'utf8');

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    const base = await startCommit(repo);
    expect(result.outcome).toBe('gates_failed');
    expect(result.cause).toBe('blocking gate failed: test');
    expect(result.failureDetail).toBe('gate test failed (exit 1):\nexpected 1, got 2');
    expect(result.commit).toBeUndefined();
    expect(result.evidenceRef).toBe(`refs/ralph/evidence/${runId}/1`);
    expect(result.filesChanged.sort()).toEqual(['README.md', 'committed.ts', 'untracked.ts']);

    expect(await git(repo, 'rev-parse', 'HEAD')).toBe(base);
    expect(await git(repo, 'rev-parse', 'ralph/demo')).toBe(base);
    expect(await isClean(repo)).toBe(true);
    expect(await exists(join(repo, 'untracked.ts'))).toBe(false);
    expect(await readFile(join(repo, 'README.md'), 'utf8')).toBe('# demo\n');
    expect(await readFile(join(repo, 'prd.json'), 'utf8')).toBe(prdBefore);
    expect(await readFile(join(repo, 'progress.txt'), 'utf8')).toBe(newProgressLog(NOW));

    const evidence = result.evidenceRef ?? '';
    expect(await git(repo, 'show', `${evidence}:untracked.ts`)).toBe('new');
    expect(await git(repo, 'show', `${evidence}:README.md`)).toBe('# demo\nchanged');
    expect(await git(repo, 'show', `${evidence}:committed.ts`)).toBe('export {}');
    expect(await git(repo, 'rev-parse', `${evidence}^^`)).toBe(base);
    expect(await git(repo, 'diff', '--name-only', base, evidence)).not.toContain('progress.txt');
    const patch = await artefact(runId, 'diff.patch');
    expect(patch).toContain('+++ b/untracked.ts');
    expect(patch).toContain('+++ b/committed.ts');
    const gates = JSON.parse(await artefact(runId, 'gates.json')) as {
      gates: { output: string }[];
    };
    expect(gates.gates[0]?.output).toBe('expected 1, got 2\n');
    // What loop control reads: the size of the change kept as evidence (3 files, 3 lines).
    expect(result.observation?.linesAdded).toBe(3);
    expect(result.observation?.linesRemoved).toBe(0);
    expect(result.observation?.agent?.format).toBe('plain');
  });

  it('keeps ignored files (node_modules) through the reset', async () => {
    // Prepare
    const { runId, repo, deps } = await scenario({
      agent: 'echo x > new.ts',
      gates: [{ name: 'test', command: 'exit 1' }],
    });
    await mkdir(join(repo, 'node_modules'));
    await writeFile(join(repo, 'node_modules', 'dep.js'), 'module.exports = 1;\n');

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('gates_failed');
    expect(await exists(join(repo, 'node_modules', 'dep.js'))).toBe(true);
    expect(await exists(join(repo, 'new.ts'))).toBe(false);
  });

  it('reports an agent that exits non-zero, with its output, and resets what it changed', async () => {
    // Prepare
    const { runId, repo, deps } = await scenario({
      agent:
        'echo partial > partial.ts; echo "thinking..."; echo "fatal: cannot continue" >&2; exit 2',
      gates: [{ name: 'never', command: 'touch "$OUT/gate-ran"' }],
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result).toMatchObject({
      outcome: 'agent_failed',
      cause: 'the agent exited with code 2',
      agentExitCode: 2,
      gates: [],
      evidenceRef: `refs/ralph/evidence/${runId}/1`,
      filesChanged: ['partial.ts'],
    });
    expect(result.failureDetail).toContain('fatal: cannot continue');
    expect(result.failureDetail).toContain('thinking...');
    expect(await isClean(repo)).toBe(true);
    expect(result.artefacts.gates).toBeUndefined();
    expect(await artefact(runId, 'transcript.jsonl')).toContain(
      JSON.stringify({ type: 'text', stream: 'stderr', text: 'fatal: cannot continue' }),
    );
  });

  it('reports an agent killed by a signal as crashed, without evidence when it changed nothing', async () => {
    // Prepare
    const { runId, repo, deps } = await scenario({ agent: 'kill -KILL $$' });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result).toMatchObject({ outcome: 'agent_crashed', agentExitCode: null });
    expect(result.cause).toContain('SIGKILL');
    expect(result.evidenceRef).toBeUndefined();
    expect(await isClean(repo)).toBe(true);
    expect(await artefact(runId, 'diff.patch')).toBe('');
  });

  it('reports an agent command that does not exist as crashed', async () => {
    // Prepare
    const { runId, deps } = await scenario({ agent: 'no-such-agent-binary --flag' });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('agent_crashed');
    expect(result.cause).toContain('no-such-agent-binary');
  });

  it('stops an agent past its timeout, its whole process group with it', async () => {
    // Prepare
    const { runId, repo, out, deps } = await scenario({
      agent: 'echo wip > wip.ts; sleep 100 & echo $! > "$OUT/child.pid"; sleep 100',
      agentTimeoutSeconds: 1,
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('agent_timeout');
    expect(result.cause).toBe('the agent timed out after 1s');
    expect(result.evidenceRef).toBe(`refs/ralph/evidence/${runId}/1`);
    expect(result.durations.agentMs).toBeLessThan(3_000);
    const pid = Number((await readFile(join(out, 'child.pid'), 'utf8')).trim());
    expect(await isProcessRunning(pid)).toBe(false);
    expect(await isClean(repo)).toBe(true);
  });

  it('fails the iteration when a gate hangs past its timeout', async () => {
    // Prepare
    const { runId, deps } = await scenario({
      agent: 'echo x > x.ts',
      gates: [{ name: 'hang', command: 'echo waiting; sleep 100', timeoutSeconds: 1 }],
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('gates_failed');
    expect(result.gates[0]).toMatchObject({ name: 'hang', timedOut: true, passed: false });
    expect(result.failureDetail).toBe('gate hang failed (timed out after 1s):\nwaiting');
  });

  it('reports no_changes when the agent exits 0 without changing anything', async () => {
    // Prepare
    const { runId, out, deps } = await scenario({
      agent: 'echo "nothing to do here"',
      gates: [{ name: 'never', command: 'touch "$OUT/gate-ran"' }],
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('no_changes');
    expect(result.failureDetail).toContain('nothing to do here');
    expect(await exists(join(out, 'gate-ran'))).toBe(false);
  });

  it('passes a story the code already meets: the agent reports it, changes nothing, the gates pass', async () => {
    // Prepare
    const { runId, repo, deps } = await scenario({
      agent: 'echo "<summary>US-001 was already implemented</summary>"',
      gates: [{ name: 'readme', command: 'test -f README.md' }],
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('passed');
    expect(result.commit).toBeDefined();
    expect(result.gates).toMatchObject([{ name: 'readme', passed: true }]);
    const prd = JSON.parse(await readFile(join(repo, 'prd.json'), 'utf8')) as Prd;
    expect(prd.userStories[0]?.passes).toBe(true);
    expect(await readFile(join(repo, 'progress.txt'), 'utf8')).toContain(
      'US-001 was already implemented (no change was needed)',
    );
  });

  it('does not pass such a report when a gate fails, nor when no gate could check it', async () => {
    // Prepare
    const report = 'echo "<summary>US-001 was already implemented</summary>"';
    const failing = await scenario({
      agent: report,
      gates: [{ name: 'missing', command: 'test -f MISSING.md' }],
    });
    const ungated = await scenario({ agent: report });

    // Act
    const gated = await runIteration(failing.deps, { runId: failing.runId, iteration: 1 });
    const unchecked = await runIteration(ungated.deps, { runId: ungated.runId, iteration: 1 });

    // Assess
    expect(gated.outcome).toBe('gates_failed');
    expect(gated.commit).toBeUndefined();
    expect(unchecked.outcome).toBe('no_changes');
  });

  it('gives S3 a measurable body for empty artefacts (no "Stream of unknown length" warning)', async () => {
    // Prepare: an agent that changes nothing leaves an empty diff.patch.
    const { runId, deps } = await scenario({ agent: 'true' });
    const warn = vi.spyOn(console, 'warn');

    // Act
    let result: IterationResult;
    let warnings: string[];
    try {
      result = await runIteration(deps, { runId, iteration: 1 });
    } finally {
      warnings = warn.mock.calls.map((call) => String(call[0]));
      warn.mockRestore();
    }

    // Assess
    expect(result.outcome).toBe('no_changes');
    expect(await artefact(runId, 'diff.patch')).toBe('');
    expect(warnings).not.toContainEqual(expect.stringContaining('unknown length'));
  });

  it('discards what the agent does to prd.json and progress.txt', async () => {
    // Prepare
    const { runId, repo, deps } = await scenario({
      agent: [
        `sed -i 's/"passes": false/"passes": true/' prd.json`,
        'echo "agent scribble" >> progress.txt',
        'echo done > done.ts',
      ].join(' && '),
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('passed');
    const prd = JSON.parse(await readFile(join(repo, 'prd.json'), 'utf8')) as Prd;
    expect(prd.userStories.map((story) => story.passes)).toEqual([true, false]);
    expect(await readFile(join(repo, 'progress.txt'), 'utf8')).not.toContain('agent scribble');
    expect(result.filesChanged).toEqual(['done.ts']);
  });

  it('keeps the runner files beside a prd.json in a subdirectory through a reset', async () => {
    // Prepare
    const { runId, repo, deps } = await scenario({
      prdPath: 'scripts/ralph/prd.json',
      agent: 'echo x > x.ts; echo scribble >> scripts/ralph/progress.txt',
      gates: [{ name: 'test', command: 'exit 1' }],
    });

    // Act
    const result = await runIteration(deps, { runId, iteration: 1 });

    // Assess
    expect(result.outcome).toBe('gates_failed');
    expect(result.filesChanged).toEqual(['x.ts']);
    expect(await readFile(join(repo, 'scripts/ralph/progress.txt'), 'utf8')).toBe(
      newProgressLog(NOW),
    );
    expect(await readFile(join(repo, 'scripts/ralph/.last-branch'), 'utf8')).toBe('ralph/demo\n');
    expect(await exists(join(repo, 'progress.txt'))).toBe(false);
    expect(await git(repo, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    expect(await git(repo, 'show', '--name-only', '--format=', 'HEAD')).toBe(
      'scripts/ralph/.last-branch\nscripts/ralph/progress.txt',
    );
  });
});
