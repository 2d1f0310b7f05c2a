import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../lambdas/core/schemas/run.js';
import type { IterationRecord } from '../../lambdas/core/schemas/iteration.js';
import { makeGitRepo, makePrd } from '../support/git-repo.js';
import { jsonOf, runCli } from '../support/cli.js';
import { WRITING_AGENT } from '../support/e2e-stack.js';

/** `ralph resume RUN --max-iterations N`: a run that stopped at its limit goes on. */
describe('CLI: ralph resume --max-iterations', () => {
  let dataDir: string;
  let repo: { path: string; cleanup: () => Promise<void> };
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'ralph-cli-resume-'));
    repo = await makeGitRepo({ 'prd.json': JSON.stringify(makePrd(3), null, 2) });
  });
  afterAll(async () => {
    await repo.cleanup();
    await rm(dataDir, { recursive: true, force: true });
  });

  const cli = (...args: string[]) => runCli([...args, '--data-dir', dataDir]);
  const showRun = async (runId: string) =>
    jsonOf<{ run: RunRecord; iterations: IterationRecord[] }>(await cli('show', runId, '--json'));

  it('continues a run that stopped at its iteration limit, after refusing a limit already used', async () => {
    // Prepare: a run of three stories that stops after one iteration.
    const first = await cli('run', '--repo', repo.path, '--agent', WRITING_AGENT, '-n', '1');
    expect(first.exitCode, first.stderr).toBe(1);
    const runs = jsonOf<{ runs: RunRecord[] }>(await cli('runs', '--json')).runs;
    const runId = runs[0]!.runId;
    expect(runs[0]!.status).toBe('max_iterations');

    // Act 1: a limit that leaves nothing to run.
    const refused = await cli('resume', runId, '--max-iterations', '1');
    // Act 2: no new limit at all.
    const noLimit = await cli('resume', runId);

    // Assess 1: both refused before anything changed, saying how many iterations ran.
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/1 is not above the 1 iterations run \S+ has already used/);
    expect(noLimit.exitCode).toBe(4);
    expect(noLimit.stderr).toMatch(/stopped at its limit of 1 iterations.*--max-iterations N/);
    expect((await showRun(runId)).run).toMatchObject({ status: 'max_iterations', segment: 1 });

    // Act 3
    const resumed = await cli('resume', runId, '--max-iterations', '5');

    // Assess 3: the next segment ran the two open stories and completed the run.
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/resuming run \S+ in segment 2 · up to 5 iterations/);
    const { run, iterations } = await showRun(runId);
    expect(run).toMatchObject({ status: 'completed', segment: 2, storiesPassed: 3 });
    expect(run.config.limits.maxIterations).toBe(5);
    expect(run.endedAt).toBeDefined();
    expect(iterations.map((it) => [it.iteration, it.segment, it.taskId, it.outcome])).toEqual([
      [1, 1, 'US-001', 'passed'],
      [2, 2, 'US-002', 'passed'],
      [3, 2, 'US-003', 'passed'],
    ]);

    // Act 4: a completed run has nothing left.
    const again = await cli('resume', runId, '--max-iterations', '9');

    // Assess 4
    expect(again.exitCode).toBe(4);
    expect(again.stderr).toMatch(/has ended \(completed\): every story passes/);
  });
});
