/**
 * A working tree with the person's uncommitted changes: an iteration would only find it
 * dirty and pause, spending an iteration and running no agent. `ralph run` and `ralph
 * resume` refuse it first, and write nothing.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../lambdas/core/schemas/run.js';
import { makePrd } from '../support/git-repo.js';
import { jsonOf, useCliScratch } from '../support/cli.js';
import { WRITING_AGENT } from '../support/e2e-stack.js';

describe('ralph run and resume: a dirty working tree', () => {
  const scratch = useCliScratch('ralph-dirty-');
  const repo = () => scratch.repo({ 'prd.json': JSON.stringify(makePrd(2), null, 2) });

  const storedRuns = async () =>
    jsonOf<{ runs: RunRecord[] }>(await scratch.ralph('runs', '--json')).runs;

  it('refuses to start a run, naming the changes, and writes nothing', async () => {
    // Prepare: the person's notes, uncommitted; prd.json edited in place is Ralph's own.
    const path = await repo();
    await writeFile(join(path, 'notes.txt'), 'mine\n');
    await writeFile(join(path, 'prd.json'), JSON.stringify(makePrd(1), null, 2));

    // Act
    const result = await scratch.ralph('run', '--repo', path, '--agent', 'true');

    // Assess
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain(
      `${path} has uncommitted changes (notes.txt): commit or stash them, then run again`,
    );
    expect(await storedRuns()).toEqual([]);
  });

  it('refuses to resume a run into it, spending no iteration', async () => {
    // Prepare: a run that stopped at its limit of 1 iteration, then the person's change.
    const path = await repo();
    const first = await scratch.ralph('run', '--repo', path, '--agent', WRITING_AGENT, '-n', '1');
    expect(first.exitCode, first.stderr).toBe(1);
    const [run] = await storedRuns();
    await writeFile(join(path, 'scratch.ts'), 'export {};\n');

    // Act
    const resumed = await scratch.ralph('resume', run!.runId, '--max-iterations', '3');

    // Assess
    expect(resumed.exitCode).toBe(4);
    expect(resumed.stderr).toContain(
      `has uncommitted changes (scratch.ts): commit or stash them, then \`ralph resume ${run!.runId} --data-dir ${scratch.dataDir}\``,
    );
    const [after] = await storedRuns();
    expect([after!.status, after!.iterationsStarted, after!.config.limits.maxIterations]).toEqual([
      'max_iterations',
      1,
      1,
    ]);
  });
});
