/**
 * Runs side by side, as people start them: `ralph run` in two terminals. Each is a process
 * of its own (the CLI as installed runs it), sharing one data dir: both complete, and
 * `ralph runs` reads both. A repository takes one run at a time, whatever data dir the
 * second comes from.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../lambdas/core/schemas/run.js';
import { makePrd } from '../support/git-repo.js';
import { jsonOf, ralphProcess, runCli, useCliScratch } from '../support/cli.js';
import { waitUntil } from '../support/local-runs.js';

/** Writes the story's file after a pause, so that the two runs' iterations overlap. */
const SLOW_AGENT = 'cat > /dev/null; sleep 1; echo done > "$RALPH_STORY_ID.txt"';

describe('ralph run: several at once', () => {
  const scratch = useCliScratch('ralph-concurrent-');

  const repo = (branch: string, stories: number): Promise<string> =>
    scratch.repo({
      'prd.json': JSON.stringify(makePrd(stories, { branchName: branch }), null, 2),
      'ralph.config.json': JSON.stringify({ gates: [{ name: 'done', command: 'ls *.txt' }] }),
    });

  /** `ralph run` as its own process, the way a person starts it in a terminal. */
  const ralphRun = (repoPath: string, agent: string, dir = scratch.dataDir) =>
    ralphProcess(['run', '--repo', repoPath, '--agent', agent, '--data-dir', dir]);

  it('completes two runs on two repositories that share one data dir', async () => {
    // Prepare
    const [first, second] = await Promise.all([repo('ralph/one', 2), repo('ralph/two', 2)]);

    // Act: both started together.
    const [one, two] = await Promise.all([
      ralphRun(first, SLOW_AGENT),
      ralphRun(second, SLOW_AGENT),
    ]);
    const listed = await scratch.ralph('runs', '--json');

    // Assess
    expect(one.exitCode, String(one.all)).toBe(0);
    expect(two.exitCode, String(two.all)).toBe(0);
    const runs = jsonOf<{ runs: RunRecord[] }>(listed).runs;
    expect(runs.map((run) => [run.branchName, run.status, run.storiesPassed]).sort()).toEqual([
      ['ralph/one', 'completed', 2],
      ['ralph/two', 'completed', 2],
    ]);
    // Both went on at once: each one's iterations started before the other's run ended.
    const [a, b] = runs.map((run) => ({
      start: Date.parse(run.createdAt),
      end: Date.parse(run.updatedAt),
    }));
    expect(a!.start).toBeLessThan(b!.end);
    expect(b!.start).toBeLessThan(a!.end);
  });

  it('refuses a second run on a repository in use, from this data dir or another', async () => {
    // Prepare: a run that takes a while, in its own process.
    const path = await repo('ralph/busy', 1);
    const busy = ralphRun(path, 'cat > /dev/null; sleep 30');
    let runId = '';
    try {
      await waitUntil(async () => {
        if (busy.exitCode !== null) throw new Error(`ralph run exited: ${(await busy).all ?? ''}`);
        const listed = await scratch.ralph('runs', '--json');
        const run = jsonOf<{ runs: RunRecord[] }>(listed).runs.find(
          (stored) => stored.branchName === 'ralph/busy',
        );
        runId = run?.runId ?? '';
        return run?.status === 'running';
      });
      const otherDir = join(scratch.dataDir, 'elsewhere');

      // Act
      const here = await scratch.ralph('run', '--repo', path, '--agent', 'true');
      const there = await runCli([
        'run',
        '--repo',
        path,
        '--agent',
        'true',
        '--data-dir',
        otherDir,
      ]);
      const status = await scratch.ralph('status', runId);

      // Assess
      for (const refused of [here, there]) {
        expect(refused.exitCode).toBe(4);
        expect(refused.stderr).toContain(`repository ${path} is in use by run ${runId}`);
        expect(refused.stderr).toContain(`ralph cancel ${runId} --data-dir ${scratch.dataDir}`);
      }
      const elsewhere = await runCli(['runs', '--json', '--data-dir', otherDir]);
      expect(jsonOf<{ runs: RunRecord[] }>(elsewhere).runs).toEqual([]);
      // The live run reads as running from another process, not as interrupted.
      expect(status.stdout).toMatch(/status\s+running\n/);
    } finally {
      busy.kill('SIGINT');
    }
    // Ctrl-C: exit 130, and the repository let go of (the lock file is gone).
    expect((await busy).exitCode).toBe(130);
    await expect(readFile(join(path, '.git', 'ralph.lock'), 'utf8')).rejects.toThrow();
  });
});
