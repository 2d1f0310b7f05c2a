import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';
import type { RunRecord } from '../../lambdas/core/schemas/run.js';
import { openLocalStack } from '../../local/local-stack.js';
import { jsonOf, runCli } from '../support/cli.js';
import { WRITING_AGENT } from '../support/e2e-stack.js';
import { git, makeGitRepo, makePrd } from '../support/git-repo.js';

const DAY_MS = 86_400_000;

interface PruneJson {
  dryRun: boolean;
  pruned: { runId: string; refs: { outcome: string; refs?: string[] }; artefacts?: number }[];
  kept: { newer: number; running: number; paused: number };
}

/** `ralph prune` over runs made with the real CLI; each call is a fresh process over one data dir. */
describe('CLI: ralph prune', () => {
  let dataDir: string;
  const cleanups: (() => Promise<void>)[] = [];
  /** A run that failed its gate (its change kept as an evidence ref), backdated 40 days. */
  let old: { runId: string; repo: string };
  /** A run whose repository was removed afterwards, backdated 40 days. */
  let orphan: { runId: string; repo: string };
  /** A run that ended just now. */
  let recent: { runId: string; repo: string };

  const runIds = async () =>
    jsonOf<{ runs: RunRecord[] }>(await runCli(['runs', '--json', '--data-dir', dataDir])).runs.map(
      (run) => run.runId,
    );
  const runnerRefs = (repo: string) =>
    git(repo, 'for-each-ref', '--format=%(refname)', 'refs/ralph/');

  /** One run with the real CLI on a fresh repository; its id is the newest listed. */
  async function makeRun(slug: string, gate: string): Promise<{ runId: string; repo: string }> {
    const made = await makeGitRepo({
      'prd.json': JSON.stringify(makePrd(1, { branchName: `ralph/${slug}` })),
    });
    cleanups.push(made.cleanup);
    const result = await runCli([
      'run',
      '--repo',
      made.path,
      '--agent',
      WRITING_AGENT,
      '--gate',
      gate,
      '--max-iterations',
      '1',
      '--data-dir',
      dataDir,
    ]);
    expect([0, 1], result.stderr).toContain(result.exitCode);
    return { runId: (await runIds())[0]!, repo: made.path };
  }

  /** Moves a run's end (and last change) `days` into the past, through the store. */
  async function backdate(runId: string, days: number): Promise<void> {
    const stack = await openLocalStack({ dataDir });
    try {
      const run = (await stack.deps.runs.getRun(runId))!;
      const past = new Date(Date.now() - days * DAY_MS).toISOString();
      await stack.deps.runs.saveRun({ ...run, endedAt: past, updatedAt: past }, run.version);
    } finally {
      await stack.close();
    }
  }

  async function manifestsStored(...ids: string[]): Promise<boolean[]> {
    const stack = await openLocalStack({ dataDir });
    try {
      return await Promise.all(
        ids.map((id) => stack.deps.artefacts.exists(artefactKeys.manifest(id))),
      );
    } finally {
      await stack.close();
    }
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'ralph-prune-'));
    old = await makeRun('old', 'never=false');
    orphan = await makeRun('orphan', 'has-file=test -f US-001.txt');
    recent = await makeRun('recent', 'has-file=test -f US-001.txt');
    await backdate(old.runId, 40);
    await backdate(orphan.runId, 40);
    await rm(orphan.repo, { recursive: true, force: true });
  }, 180_000);
  afterAll(async () => {
    await Promise.all(cleanups.map((cleanup) => cleanup()));
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses --endpoint and a malformed --older-than with exit 2, deleting nothing', async () => {
    // Act
    const remote = await runCli([
      'prune',
      '--endpoint',
      'http://127.0.0.1:9',
      '--data-dir',
      dataDir,
    ]);
    const malformed = await runCli(['prune', '--older-than', '30 days', '--data-dir', dataDir]);

    // Assess
    expect(remote.exitCode).toBe(2);
    expect(remote.stderr).toMatch(/local stack only.*leave out --endpoint/);
    expect(malformed.exitCode).toBe(2);
    expect(malformed.stderr).toContain('"30 days" is not a duration');
    expect(await runIds()).toHaveLength(3);
  });

  it('lists with --dry-run what would go, and deletes nothing', async () => {
    // Prepare
    const refsBefore = await runnerRefs(old.repo);

    // Act
    const result = await runCli(['prune', '--dry-run', '--json', '--data-dir', dataDir]);

    // Assess
    expect(result.exitCode, result.stderr).toBe(0);
    const json = jsonOf<PruneJson>(result);
    expect(json.dryRun).toBe(true);
    expect(json.pruned.map((run) => run.runId).sort()).toEqual([old.runId, orphan.runId].sort());
    expect(refsBefore).toContain(`refs/ralph/evidence/${old.runId}/1`);
    expect(await runnerRefs(old.repo)).toBe(refsBefore);
    expect(await runIds()).toHaveLength(3);
  });

  it('removes the older runs’ records, artefacts and refs, and keeps the newer run', async () => {
    // Prepare
    const recentRefs = await runnerRefs(recent.repo);

    // Act
    const result = await runCli(['prune', '--older-than', '30d', '--data-dir', dataDir]);

    // Assess: the table, the counts, and the repository that could not be cleaned.
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`${old.runId} .*max_iterations`));
    expect(result.stdout).toMatch(/^pruned 2 runs: 1 ref, \d+ artefacts, \d+ records$/m);
    expect(result.stdout).toMatch(/^kept: 1 newer$/m);
    expect(result.stdout).toContain(
      `${orphan.runId}: the refs could not be cleaned: ${orphan.repo} no longer exists`,
    );
    // Assess: gone from the store, the bucket and the repository; the newer run untouched.
    expect(await runIds()).toEqual([recent.runId]);
    expect(await manifestsStored(old.runId, orphan.runId, recent.runId)).toEqual([
      false,
      false,
      true,
    ]);
    expect(await runnerRefs(old.repo)).toBe('');
    expect(await runnerRefs(recent.repo)).toBe(recentRefs);
    const status = await runCli(['status', old.runId, '--data-dir', dataDir]);
    expect(status.exitCode).toBe(4);
  });

  it('prunes every ended run with --older-than 0s, and finds nothing left after', async () => {
    // Act
    const all = jsonOf<PruneJson>(
      await runCli(['prune', '--older-than', '0s', '--json', '--data-dir', dataDir]),
    );
    const again = await runCli(['prune', '--older-than', '0s', '--data-dir', dataDir]);

    // Assess
    expect(all.pruned.map((run) => run.runId)).toEqual([recent.runId]);
    expect(all.pruned[0]!.artefacts).toBeGreaterThan(0);
    expect(await runIds()).toEqual([]);
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toMatch(/^no ended runs stopped before/m);
  });
});
