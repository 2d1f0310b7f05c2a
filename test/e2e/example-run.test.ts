import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IterationRecord, RunRecord, TaskRecord } from '../../lambdas/core/schemas/index.js';
import { git } from '../support/git-repo.js';
import { jsonOf, runCli } from '../support/cli.js';

interface RunDocument {
  run: RunRecord;
  tasks: TaskRecord[];
  iterations: IterationRecord[];
}

/**
 * `npm start` end to end: the example repository, its scripted agent and real gates (tsc,
 * tsx --test) through the state machine, the handlers, dynalite and s3rver — then a fresh
 * CLI invocation (a restart) reads the stored run back.
 */
describe('Example: ralph example (npm start)', () => {
  let dataDir: string;
  let document: RunDocument;
  let exitCode: number;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'ralph-example-'));
    const result = await runCli(['example', '--data-dir', dataDir, '--json']);
    exitCode = result.exitCode;
    document = jsonOf<RunDocument>(result);
  }, 120_000);

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('completes with 3 of 3 stories passing their gates', () => {
    expect(exitCode).toBe(0);
    expect(document.run.status).toBe('completed');
    expect(document.run.storiesPassed).toBe(3);
    expect(document.tasks.map((task) => task.status)).toEqual(['complete', 'complete', 'complete']);
  });

  it('records one gate failure and recovers from it on the retry', () => {
    const outcomes = document.iterations.map((it) => [it.taskId, it.outcome]);
    expect(outcomes).toEqual([
      ['US-001', 'passed'],
      ['US-002', 'gates_failed'],
      ['US-002', 'passed'],
      ['US-003', 'passed'],
    ]);
    const failed = document.iterations[1]!;
    expect(failed.gates.find((gate) => gate.name === 'test')).toMatchObject({ passed: false });
    expect(failed.evidenceRef).toBe(`refs/ralph/evidence/${document.run.runId}/2`);
    expect(failed.commit).toBeUndefined();
    expect(document.iterations[2]!.attempt).toBe(2);
  });

  it('leaves the repository on the branch with prd.json and progress.txt in Ralph format', async () => {
    if (document.run.repo.kind !== 'local') throw new Error('expected a local repository');
    const repo = document.run.repo.path;
    expect(await git(repo, 'branch', '--show-current')).toBe('ralph/todo-basics');
    const log = await git(repo, 'log', '--format=%s');
    expect(log.split('\n').slice(0, 3)).toEqual([
      'feat: US-003 - Summarise progress',
      'feat: US-002 - Complete and filter todos',
      'feat: US-001 - Add todos',
    ]);
    const prd = JSON.parse(readFileSync(join(repo, 'prd.json'), 'utf8')) as {
      userStories: { passes: boolean }[];
    };
    expect(prd.userStories.every((story) => story.passes)).toBe(true);
    const progress = readFileSync(join(repo, 'progress.txt'), 'utf8');
    expect(progress).toMatch(/^# Ralph Progress Log\nStarted: .+\n---\n/);
    expect(progress).toMatch(/## Codebase Patterns\n- Todo lists are immutable/);
    expect(progress).toMatch(/## \d{4}-\d\d-\d\d \d\d:\d\d - US-002\n/);
    expect(progress).toContain('**Learnings for future iterations:**');
    // The failed attempt is kept as evidence, not on the branch.
    expect(await git(repo, 'show', '--stat', '--format=%s', failedRef(document))).toContain(
      'src/todos.ts',
    );
  });

  it('reads the stored run back after a restart (status and show)', async () => {
    const runId = document.run.runId;
    const status = await runCli(['status', runId, '--data-dir', dataDir, '--json']);
    expect(status.exitCode).toBe(0);
    expect(jsonOf<{ run: RunRecord }>(status).run).toMatchObject({ runId, status: 'completed' });

    const show = await runCli(['show', runId, '--iteration', '2', '--data-dir', dataDir]);
    expect(show.exitCode).toBe(0);
    expect(show.stdout).toContain('gates_failed');
    expect(show.stdout).toContain('--- test output (tail) ---');

    const prompt = await runCli([
      'show',
      runId,
      '--iteration',
      '3',
      '--artefact',
      'prompt.md',
      '--data-dir',
      dataDir,
    ]);
    expect(prompt.stdout).toContain('## Last failure');
    expect(prompt.stdout).toContain('US-002');
  });
});

function failedRef(document: RunDocument): string {
  const ref = document.iterations.find((it) => it.outcome === 'gates_failed')?.evidenceRef;
  if (!ref) throw new Error('no evidence ref');
  return ref;
}
