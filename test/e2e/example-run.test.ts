import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artefactKeys } from '../../lambdas/core/shared/artefact-keys.js';
import {
  ConvergenceProofSchema,
  type ConvergenceProof,
} from '../../lambdas/core/schemas/analysis/checks.js';
import type { RunRecord } from '../../lambdas/core/schemas/run.js';
import type { IterationRecord } from '../../lambdas/core/schemas/iteration.js';
import type { IterationEvaluationSummary } from '../../lambdas/core/schemas/evaluation-records.js';
import type { TaskRecord } from '../../lambdas/core/schemas/task.js';
import { parseJsonText } from '../../lambdas/core/shared/validation.js';
import { openLocalStack } from '../../local/local-stack.js';
import { OFFLINE_JUDGE_LABEL } from '../../local/offline-judge/labels.js';
import { git } from '../support/git-repo.js';
import { jsonOf, runCli } from '../support/cli.js';

interface RunDocument {
  run: RunRecord;
  tasks: TaskRecord[];
  iterations: IterationRecord[];
}

const STORY_DOCUMENTS = [1, 2, 3, 4, 5, 6, 7].map((n) => `story-fb-00${n}`);

/**
 * `npm start` end to end: the example repository, its scripted agent and real gates (tsc,
 * tsx --test) through the state machine, the handlers, dynalite and s3rver, with the
 * example's evaluation suite judged by the offline judge — then fresh CLI invocations (a
 * restart) read the stored run back. Without ANTHROPIC_API_KEY (as in CI), so the offline
 * judge and proposer answer and every figure is deterministic.
 */
describe('Example: ralph example (npm start)', () => {
  let dataDir: string;
  let stdout: string;
  let exitCode: number;
  let document: RunDocument;
  /** The stored proof, when the run converged. */
  let proof: (ConvergenceProof & { runId?: string }) | undefined;
  const savedKey = process.env.ANTHROPIC_API_KEY;

  beforeAll(async () => {
    delete process.env.ANTHROPIC_API_KEY;
    dataDir = await mkdtemp(join(tmpdir(), 'ralph-example-'));
    // People's output, as `npm start` prints it; the record is read back as JSON below.
    const result = await runCli(['example', '--data-dir', dataDir]);
    exitCode = result.exitCode;
    stdout = result.stdout;
    const runId = /^run (r[\w-]+) · /m.exec(stdout)?.[1];
    if (!runId) throw new Error(`no run id in the output:\n${stdout}\n${result.stderr}`);
    document = jsonOf<RunDocument>(await runCli(['show', runId, '--data-dir', dataDir, '--json']));

    if (document.run.evaluation?.converged) {
      const stack = await openLocalStack({ dataDir });
      try {
        const key = artefactKeys.convergenceProof(runId);
        proof = parseJsonText(await stack.deps.artefacts.getText(key), key) as typeof proof;
      } finally {
        await stack.close();
      }
    }
  }, 120_000);

  afterAll(async () => {
    if (savedKey !== undefined) process.env.ANTHROPIC_API_KEY = savedKey;
    await rm(dataDir, { recursive: true, force: true });
  });

  it('names the offline judge on the first line of its output', () => {
    const [first] = stdout.split('\n');
    expect(first).toContain(OFFLINE_JUDGE_LABEL);
  });

  it('completes with 4 of 4 stories passing their gates', () => {
    expect(exitCode).toBe(0);
    expect(document.run.status).toBe('completed');
    expect(document.run.storiesPassed).toBe(4);
    expect(document.tasks.map((task) => task.status)).toEqual([
      'complete',
      'complete',
      'complete',
      'complete',
    ]);
  });

  it('records one gate failure and recovers from it on the retry', () => {
    const outcomes = document.iterations.map((it) => [it.taskId, it.outcome]);
    expect(outcomes).toEqual([
      ['US-001', 'passed'],
      ['US-002', 'gates_failed'],
      ['US-002', 'passed'],
      ['US-003', 'passed'],
      ['US-004', 'passed'],
    ]);
    const failed = document.iterations[1]!;
    expect(failed.gates.find((gate) => gate.name === 'test')).toMatchObject({ passed: false });
    expect(failed.evidenceRef).toBe(`refs/ralph/evidence/${document.run.runId}/2`);
    expect(failed.commit).toBeUndefined();
    expect(document.iterations[2]!.attempt).toBe(2);
  });

  it('scores the same 7 story documents every iteration, the failed one included', () => {
    for (const iteration of document.iterations) {
      expect(iteration.documents).toEqual(STORY_DOCUMENTS);
      expect(iteration.evaluation).toMatchObject({ artefacts: 7, judged: 7, judgeFailed: 0 });
    }
  });

  it('ends with the gap closed, having learned from the iteration where it opened', () => {
    const { gapThreshold } = document.run.config.evaluation.convergence;
    const summaries = document.iterations.map((it) => it.evaluation!);
    // Where the gap opened past its threshold, the proposers were asked and proposed.
    const opened = summaries.filter((summary) => Math.abs(summary.gap!) > gapThreshold);
    expect(opened.length).toBeGreaterThan(0);
    for (const summary of opened) expect(summary.patternsProposed).toBeGreaterThan(0);
    expect(Math.abs(summaries.at(-1)!.gap!)).toBeLessThanOrEqual(gapThreshold);
    // What was proposed is in the set the run ends with, on trial or committed.
    const last = summaries.at(-1)!;
    expect(last.activePatterns + last.provisionalPatterns).toBeGreaterThan(0);
  });

  // The cheap evaluator and the offline judge decide the figures; these tests hold for any
  // of them: a verdict follows the rules, and the output says which rule held or failed.
  it('prints rho and QWK in its evaluation table, as stored', () => {
    const evaluation = stripVTControlCharacters(
      stdout.slice(stdout.indexOf('dual-mode evaluation')),
    );
    expect(evaluation).toMatch(/│ # +│ judge │ cheap │ gap +│ Δ +│ MAE +│ ρ +│ QWK +│/);
    for (const { iteration, evaluation: summary } of document.iterations) {
      const row = evaluation.split('\n').find((line) => line.startsWith(`│ ${iteration} │`));
      const cells = row?.split('│').map((cell) => cell.trim());
      expect(cells?.slice(7, 9)).toEqual([figure(summary!.spearman), figure(summary!.qwk)]);
    }
  });

  it('converges only where every headline rule held over the window, agreement included', () => {
    const summaries = document.iterations.map((it) => it.evaluation!);
    summaries.forEach((summary, index) => {
      const window = summaries.slice(Math.max(0, index - 1), index + 1);
      if (summary.converged) expect(window.every(headlineRulesHold)).toBe(true);
    });
  });

  it('ends with a convergence line that says which rules held or failed, with numbers', () => {
    // Prepare
    const { run } = document;
    const line = stripVTControlCharacters(stdout)
      .split('\n')
      .find((text) => /^(not )?converged (at|after) iteration/.test(text));

    // Assess
    if (run.evaluation?.converged) {
      expect(line).toMatch(
        new RegExp(
          `^converged at iteration ${run.evaluation.convergedIteration}: cheap ≥ 4\\.0 \\(${NUMBER}\\), \\|gap\\| ≤ 0\\.5 \\(${NUMBER}\\), ρ ≥ 0\\.6 \\(${NUMBER}\\), QWK ≥ 0\\.6 \\(${NUMBER}\\) over 2 iterations · proof: `,
        ),
      );
      expect(run.stopReason).toContain(
        `converged at iteration ${run.evaluation.convergedIteration}`,
      );
      const parsed = ConvergenceProofSchema.parse(proof);
      expect(proof?.runId).toBe(run.runId);
      expect(parsed.checks).toMatchObject({ minSpearman: true, minQwk: true });
      expect(Object.values(parsed.checks).every(Boolean)).toBe(true);
      expect(parsed.evidence.artefactIds).toEqual([STORY_DOCUMENTS, STORY_DOCUMENTS]);
      for (const { spearman, qwk } of parsed.evidence.agreement) {
        expect(spearman!).toBeGreaterThanOrEqual(0.6);
        expect(qwk!).toBeGreaterThanOrEqual(0.6);
      }
    } else {
      const last = document.iterations.at(-1)!;
      expect(line).toBe(
        `not converged after iteration ${last.iteration}: ${last.evaluation!.convergence}`,
      );
      // The stop reason says why, in the same words as the line.
      expect(run.stopReason).toContain(
        `the evaluation has not converged: ${last.evaluation!.convergence}`,
      );
      // Each headline rule the window broke is named, with its number or why it has none;
      // the ones that held are said to.
      const window = document.iterations.slice(-2).map((it) => it.evaluation!);
      for (const { label, rule, holds } of HEADLINE_RULES)
        if (window.every(holds)) expect(line).toContain(`${rule} held`);
        else expect(line).toMatch(new RegExp(`${escape(label)} (${NUMBER} [<>]|not measurable)`));
    }
  });

  it('leaves the repository on the branch with prd.json and progress.txt in Ralph format', async () => {
    if (document.run.repo.kind !== 'local') throw new Error('expected a local repository');
    const repo = document.run.repo.path;
    expect(await git(repo, 'branch', '--show-current')).toBe('ralph/todo-basics');
    const log = await git(repo, 'log', '--format=%s');
    expect(log.split('\n').slice(0, 4)).toEqual([
      'feat: US-004 - Say what goes wrong today',
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

    // The run's report: the evaluation table with rho and QWK, and the same convergence line.
    const report = stripVTControlCharacters(
      (await runCli(['show', runId, '--data-dir', dataDir])).stdout,
    );
    expect(report).toMatch(/│ ρ +│ QWK +│/);
    const convergence = (text: string) =>
      text.split('\n').find((line) => /^(not )?converged (at|after) iteration/.test(line));
    expect(convergence(report)).toBeDefined();
    expect(convergence(report)).toBe(convergence(stripVTControlCharacters(stdout)));

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
    // Where the failed attempt's change is kept, for the agent that tries again.
    expect(prompt.stdout).toContain(`Its change is kept at \`refs/ralph/evidence/${runId}/2\``);
  });
});

/** A figure as the CLI prints it (two decimals, `—` for none). */
const figure = (value: number | null) => (value === null ? '—' : value.toFixed(2));
const NUMBER = '-?\\d\\.\\d\\d';
const escape = (text: string) => text.replace(/[|]/g, '\\$&');

/** The rules a convergence is stated by, with the defaults the example runs with. */
const HEADLINE_RULES: {
  label: string;
  rule: string;
  holds: (summary: IterationEvaluationSummary) => boolean;
}[] = [
  { label: 'cheap', rule: 'cheap ≥ 4.0', holds: (s) => atLeast(s.cheapAvg, 4) },
  {
    label: '|gap|',
    rule: '|gap| ≤ 0.5',
    holds: (s) => s.gap !== null && Math.abs(s.gap) <= 0.5 + 1e-9,
  },
  { label: 'ρ', rule: 'ρ ≥ 0.6', holds: (s) => atLeast(s.spearman, 0.6) },
  { label: 'QWK', rule: 'QWK ≥ 0.6', holds: (s) => atLeast(s.qwk, 0.6) },
];

function atLeast(value: number | null, limit: number): boolean {
  return value !== null && value >= limit - 1e-9;
}

function headlineRulesHold(summary: IterationEvaluationSummary): boolean {
  return HEADLINE_RULES.every(({ holds }) => holds(summary));
}

function failedRef(document: RunDocument): string {
  const ref = document.iterations.find((it) => it.outcome === 'gates_failed')?.evidenceRef;
  if (!ref) throw new Error('no evidence ref');
  return ref;
}
