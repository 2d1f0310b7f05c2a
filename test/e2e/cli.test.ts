import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../lambdas/core/schemas/run.js';
import type { IterationRecord } from '../../lambdas/core/schemas/iteration.js';
import { git, makeGitRepo, makePrd } from '../support/git-repo.js';
import { jsonOf, ralphProcess, runCli } from '../support/cli.js';
import { WRITING_AGENT } from '../support/e2e-stack.js';
import { waitUntil } from '../support/local-runs.js';
import { execa } from 'execa';

/** The `ralph` CLI as a user drives it: each call is a fresh process over the same data dir. */
describe('CLI: ralph', () => {
  let dataDir: string;
  const cleanups: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'ralph-cli-'));
  });
  afterAll(async () => {
    await Promise.all(cleanups.map((cleanup) => cleanup()));
    await rm(dataDir, { recursive: true, force: true });
  });

  async function repo(files: Record<string, string>) {
    const made = await makeGitRepo(files);
    cleanups.push(made.cleanup);
    return made.path;
  }

  it('runs an arbitrary repository with its own prd.json, gates and a command agent', async () => {
    // Prepare: prd.json where Ralph keeps it, a gate that checks the agent's work.
    const prd = makePrd(2, { branchName: 'ralph/cli-demo' });
    const path = await repo({ 'scripts/ralph/prd.json': JSON.stringify(prd, null, 2) });

    // Act
    const result = await runCli([
      'run',
      '--repo',
      path,
      '--agent',
      WRITING_AGENT,
      '--gate',
      'has-file=test -f "US-001.txt"',
      '--data-dir',
      dataDir,
    ]);

    // Assess
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /^ralph-cloud · local stack · agent: cat > \/dev\/null.*\(flag\)$/m,
    );
    expect(result.stdout).toMatch(/· up to 10 iterations · gates: has-file$/m);
    expect(result.stdout).toMatch(/^#1 +US-001 +✓ passed +gates: has-file ✓ +commit [0-9a-f]{8}/m);
    expect(result.stdout).toMatch(/: completed/);
    const written = JSON.parse(
      await readFile(join(path, 'scripts/ralph/prd.json'), 'utf8'),
    ) as typeof prd;
    expect(written.userStories.map((story) => story.passes)).toEqual([true, true]);
    expect(existsSync(join(path, 'scripts/ralph/progress.txt'))).toBe(true);
    expect(await git(path, 'branch', '--show-current')).toBe('ralph/cli-demo');
  });

  it('lists, shows and reports status of stored runs as JSON', async () => {
    const runs = jsonOf<{ runs: RunRecord[] }>(
      await runCli(['runs', '--json', '--data-dir', dataDir]),
    ).runs;
    expect(runs.length).toBeGreaterThan(0);
    const runId = runs[0]!.runId;

    const shown = jsonOf<{ iterations: IterationRecord[] }>(
      await runCli(['show', runId, '--json', '--data-dir', dataDir]),
    );
    expect(shown.iterations.map((it) => it.outcome)).toEqual(['passed', 'passed']);

    const diff = await runCli([
      'show',
      runId,
      '--iteration',
      '1',
      '--artefact',
      'diff.patch',
      '--data-dir',
      dataDir,
    ]);
    expect(diff.stdout).toContain('US-001.txt');

    // Every artefact is named by the command that shows it, and that command works as printed.
    const detail = await runCli(['show', runId, '--iteration', '1', '--data-dir', dataDir]);
    expect(detail.stdout).not.toContain('_S3rver_object');
    const printed = new RegExp(
      `^  prompt +(ralph show ${runId} --iteration 1 --artefact prompt\\.md --data-dir \\S+)$`,
      'm',
    ).exec(detail.stdout)?.[1];
    expect(printed, detail.stdout).toBeDefined();
    const viaPrinted = await runCli(printed!.split(' ').slice(1));
    expect(viaPrinted.exitCode).toBe(0);
    expect(viaPrinted.stdout).toMatch(/^# Ralph iteration 1: US-001/);
  });

  it('says at the start and the end of a run without gates that nothing was verified', async () => {
    // Prepare
    const path = await repo({
      'prd.json': JSON.stringify(makePrd(1, { branchName: 'ralph/no-gates' })),
    });

    // Act
    const result = await runCli([
      'run',
      '--repo',
      path,
      '--agent',
      WRITING_AGENT,
      '--data-dir',
      dataDir,
    ]);

    // Assess
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/· no gates: nothing will be verified$/m);
    expect(result.stdout).toContain('all 1 stories done; no gates: nothing was verified');
    expect(result.stdout).not.toContain('pass their gates');
  });

  it('refuses a ralph.config.json with typos, naming the nearest known keys', async () => {
    // Prepare
    const file = join(dataDir, 'typos.config.json');
    await writeFile(file, '{"agent":{"timeoutSecs":5},"gatez":[]}');

    // Act
    const result = await runCli(['validate', file]);

    // Assess
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(
      'agent.timeoutSecs: unknown key — did you mean timeoutSeconds?',
    );
    expect(result.stderr).toContain('gatez: unknown key — did you mean gates?');
  });

  describe('refuses before anything is written, with exit 2 and the fix', () => {
    const runsNow = async () =>
      jsonOf<{ runs: RunRecord[] }>(await runCli(['runs', '--json', '--data-dir', dataDir])).runs
        .length;

    it.each([
      {
        case: 'a branch name git refuses',
        prd: makePrd(1, { branchName: 'ralph/my feature' }),
        flags: ['--agent', 'true'],
        says: 'branchName: not a git branch name: "ralph/my feature" contains a space',
      },
      {
        case: 'an agent that is not installed',
        prd: makePrd(1),
        flags: ['--agent', 'claudee -p'],
        says: 'agent.command: "claudee" is not on the PATH (in `claudee -p`): install it or fix the command',
      },
      {
        case: 'a gate whose program is not installed',
        prd: makePrd(1),
        flags: ['--agent', 'true', '--gate', 'test=pytestt -q'],
        says: 'gate test: "pytestt" is not on the PATH',
      },
    ])('$case', async ({ prd, flags, says }) => {
      // Prepare
      const path = await repo({ 'prd.json': JSON.stringify(prd) });
      const before = await runsNow();

      // Act
      const result = await runCli(['run', '--repo', path, ...flags, '--data-dir', dataDir]);

      // Assess
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain(says);
      expect(await runsNow()).toBe(before);
      expect(await git(path, 'status', '--porcelain')).toBe('');
    });

    it('a repository with no commits, and one that does not exist', async () => {
      // Prepare
      const empty = await mkdtemp(join(tmpdir(), 'ralph-no-commits-'));
      cleanups.push(() => rm(empty, { recursive: true, force: true }));
      await execa('git', ['init', '-q'], { cwd: empty });
      await writeFile(join(empty, 'prd.json'), JSON.stringify(makePrd(1)));
      const before = await runsNow();

      // Act
      const uncommitted = await runCli([
        'run',
        '--repo',
        empty,
        '--agent',
        'true',
        '--data-dir',
        dataDir,
      ]);
      const missing = await runCli([
        'run',
        '--repo',
        `${empty}-gone`,
        '--agent',
        'true',
        '--data-dir',
        dataDir,
      ]);

      // Assess
      expect(uncommitted.exitCode).toBe(2);
      expect(uncommitted.stderr).toContain(
        `${empty} has no commits yet: commit what is there first`,
      );
      expect(missing.exitCode).toBe(2);
      expect(missing.stderr).toContain(`the repository ${empty}-gone does not exist: check --repo`);
      expect(await runsNow()).toBe(before);
    });
  });

  it('refuses an invalid prd.json with the zod path, exit code 2, and writes nothing', async () => {
    // Prepare
    const prd = makePrd(3) as unknown as { userStories: Record<string, unknown>[] };
    prd.userStories[2]!.acceptanceCriteria = 'Typecheck passes';
    const path = await repo({ 'prd.json': JSON.stringify(prd) });
    const before = jsonOf<{ runs: RunRecord[] }>(
      await runCli(['runs', '--json', '--data-dir', dataDir]),
    ).runs;

    // Act
    const result = await runCli(['run', '--repo', path, '--agent', 'true', '--data-dir', dataDir]);

    // Assess
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(
      'userStories[2].acceptanceCriteria: expected array, received string',
    );
    const after = jsonOf<{ runs: RunRecord[] }>(
      await runCli(['runs', '--json', '--data-dir', dataDir]),
    ).runs;
    expect(after).toHaveLength(before.length);
    expect(await git(path, 'status', '--porcelain')).toBe('');
  });

  it('refuses an invalid config the same way, as JSON under --json', async () => {
    const path = await repo({
      'prd.json': JSON.stringify(makePrd(1)),
      'ralph.config.json': JSON.stringify({ limits: { maxIterations: 0 } }),
    });

    const result = await runCli([
      'run',
      '--repo',
      path,
      '--agent',
      'true',
      '--json',
      '--data-dir',
      dataDir,
    ]);

    expect(result.exitCode).toBe(2);
    const { error } = jsonOf<{ error: { issues: string[] } }>(result);
    expect(error.issues).toEqual(['limits.maxIterations: Too small: expected number to be >0']);
  });

  it('validates files without running anything', async () => {
    const file = join(dataDir, 'prd.json');
    await writeFile(file, JSON.stringify(makePrd(2)));
    const ok = await runCli(['validate', file]);
    expect(ok).toMatchObject({ exitCode: 0 });
    expect(ok.stdout).toContain('valid prd.json — 2 stories, 2 open; next: US-001');

    await writeFile(file, '{"project": "x", "userStories": [{"id": 1}]}');
    const bad = await runCli(['validate', file]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('branchName: expected string, received undefined');
    expect(bad.stderr).toContain('userStories[0].id: expected string, received number');
  });

  it('refuses a segment whose evaluated iterations would pass the execution-history cap, with the arithmetic', async () => {
    // Prepare: 200 suite documents judged per iteration (the change is not, with a suite).
    const file = join(dataDir, 'ralph.config.json');
    await writeFile(
      file,
      JSON.stringify({
        evaluation: { enabled: true, suite: { command: 'true', maxDocuments: 200 } },
        limits: { iterationsPerSegment: 25 },
      }),
    );

    // Act
    const refused = await runCli(['validate', file]);

    // Assess: 25 × (46 + 7 × 200) = 36,150 events, over the 20,000 a segment may use.
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(
      "limits.iterationsPerSegment: 25 iterations × 1446 events (46 + 7 × 200 artefacts judged) = 36150 events, over the 20000 of Step Functions' 25000-event execution history a segment may use; at most 13 fit (leave it out to have it chosen)",
    );
  });

  it('answers exit code 4 for a run that does not exist or cannot do what is asked', async () => {
    expect((await runCli(['status', 'r-none', '--data-dir', dataDir])).exitCode).toBe(4);
    const runs = jsonOf<{ runs: RunRecord[] }>(
      await runCli(['runs', '--json', '--data-dir', dataDir]),
    ).runs;
    const cancel = await runCli(['cancel', runs[0]!.runId, '--data-dir', dataDir]);
    expect(cancel.exitCode).toBe(4);
    expect(cancel.stderr).toMatch(/already ended \(completed\)/);
    expect((await runCli(['resume', runs[0]!.runId, '--data-dir', dataDir])).exitCode).toBe(4);
  });

  it("prints a run's own artefact, and names a missing one in words, not as an S3 URI", async () => {
    // Prepare: a run that judged nothing, so it has no convergence proof.
    const [run] = jsonOf<{ runs: RunRecord[] }>(
      await runCli(['runs', '--json', '--data-dir', dataDir]),
    ).runs;
    const runId = run!.runId;

    // Act
    const summary = await runCli([
      'show',
      runId,
      '--artefact',
      'summary.json',
      '--data-dir',
      dataDir,
    ]);
    const proof = await runCli([
      'show',
      runId,
      '--artefact',
      'convergence-proof.json',
      '--data-dir',
      dataDir,
    ]);

    // Assess
    expect(summary.exitCode, summary.stderr).toBe(0);
    expect(JSON.parse(summary.stdout)).toMatchObject({ run: { runId } });
    expect(proof.exitCode).toBe(4);
    expect(proof.stderr).toContain(`artefact not found: convergence-proof.json of run ${runId}`);
    expect(proof.stderr).not.toContain('s3://');
  });

  it("shows a failed agent's own output in show --iteration", async () => {
    // Prepare
    const path = await repo({
      'prd.json': JSON.stringify(makePrd(1, { branchName: 'ralph/agent-fails' })),
    });
    const agent = 'cat > /dev/null; echo "ModuleNotFoundError: no module named foo" >&2; exit 3';
    const run = await runCli([
      'run',
      '--repo',
      path,
      '--agent',
      agent,
      '--max-iterations',
      '1',
      '--data-dir',
      dataDir,
      '--json',
    ]);
    const runId = jsonOf<{ run: RunRecord }>(run).run.runId;

    // Act
    const shown = await runCli(['show', runId, '--iteration', '1', '--data-dir', dataDir]);

    // Assess
    expect(shown.exitCode).toBe(0);
    expect(shown.stdout).toContain('agent_failed');
    expect(shown.stdout).toMatch(
      /--- agent output \(tail\) ---\n[^]*ModuleNotFoundError: no module named foo/,
    );
  });

  it('keeps its data dir out of the repository it runs in (ralph run inside the repo)', async () => {
    const path = await repo({ 'prd.json': JSON.stringify(makePrd(1)) });

    const result = await runCli([
      'run',
      '--agent',
      WRITING_AGENT,
      '--repo',
      path,
      '--data-dir',
      join(path, '.ralph'),
    ]);

    expect(result.exitCode, result.stdout).toBe(0);
    expect(await git(path, 'status', '--porcelain')).toBe('');
    expect(await git(path, 'show', '--stat', '--format=', 'HEAD')).not.toContain('.ralph');
  });

  it("shows a run whose process was killed as interrupted, and resume keeps its agent's leftovers as evidence", async () => {
    // Prepare: `ralph run` in a process of its own, killed with SIGKILL mid-iteration, its
    // agent having written half of its change. The agent finishes on its second start.
    const killedDir = join(dataDir, 'killed');
    const path = await repo({
      'prd.json': JSON.stringify(makePrd(1, { branchName: 'ralph/killed' })),
    });
    const marker = join(killedDir, 'agent-started-once');
    const agent = `cat > /dev/null; if [ -e ${marker} ]; then echo done > "$RALPH_STORY_ID.txt"; else touch ${marker}; echo half > half.txt; sleep 60; fi`;
    const child = ralphProcess(['run', '--repo', path, '--agent', agent, '--data-dir', killedDir], {
      detached: true,
    });
    let runId = '';
    await waitUntil(async () => {
      if (child.exitCode !== null) throw new Error(`ralph run exited: ${(await child).all ?? ''}`);
      const listed = await runCli(['runs', '--json', '--data-dir', killedDir]).catch(
        () => undefined,
      );
      if (!listed || listed.exitCode !== 0) return false;
      const [stored] = jsonOf<{ runs: RunRecord[] }>(listed).runs;
      runId = stored?.runId ?? '';
      return stored !== undefined && stored.iterationsStarted > 0;
    });
    // Killed once the agent has written its half (before it, there would be no leftovers).
    await waitUntil(async () => existsSync(join(path, 'half.txt')));
    process.kill(-child.pid!, 'SIGKILL');
    await child;

    // Act
    const status = await runCli(['status', runId, '--data-dir', killedDir]);
    const runs = await runCli(['runs', '--data-dir', killedDir]);

    // Assess
    expect(status.exitCode).toBe(0);
    expect(status.stdout).toContain(
      `status     interrupted (no ralph process is running it: \`ralph resume ${runId} --data-dir ${killedDir}\` continues it)`,
    );
    expect(runs.stdout).toMatch(new RegExp(`${runId} .* interrupted `));

    // Act 2: resume, with the interrupted agent's file still in the tree.
    const resumed = await runCli(['resume', runId, '--data-dir', killedDir]);

    // Assess 2: no pause on the leftovers; they are kept as iteration 1's evidence.
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(await git(path, 'show', `refs/ralph/evidence/${runId}/1:half.txt`)).toBe('half');
    expect(await git(path, 'ls-tree', '--name-only', 'ralph/killed')).not.toContain('half.txt');
    expect(await git(path, 'status', '--porcelain')).toBe('');
  });

  it('ends a run that stops short with exit code 1', async () => {
    const path = await repo({ 'prd.json': JSON.stringify(makePrd(1)) });
    const result = await runCli([
      'run',
      '--repo',
      path,
      '--agent',
      'cat > /dev/null',
      '-n',
      '2',
      '--data-dir',
      dataDir,
    ]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(/max_iterations — reached the limit of 2 iterations/);
  });
});
