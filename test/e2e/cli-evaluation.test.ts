import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUITE_OUTPUT_ENV } from '../../agent/checks/evaluation-suite.js';
import { IterationLogSchema } from '../../lambdas/core/schemas/analysis/log.js';
import type { IterationEvaluationSummary } from '../../lambdas/core/schemas/evaluation-records.js';
import type { RunRecord } from '../../lambdas/core/schemas/run.js';
import type { IterationRecord } from '../../lambdas/core/schemas/iteration.js';
import { jsonOf, runCli, type CliResult } from '../support/cli.js';
import { WRITING_AGENT } from '../support/e2e-stack.js';
import { makeGitRepo, makePrd } from '../support/git-repo.js';

/** What the evaluation suite writes every iteration: the same two user stories. */
const STORIES = {
  'good.json': {
    id: 'S-1',
    title: 'Export feedback as CSV',
    description:
      'As a support lead I am frustrated when I copy feedback by hand, so that I can share it with product I want a CSV export.',
    acceptance_criteria: [
      'Given feedback exists, when I click Export, then a CSV downloads',
      'The CSV has one row per feedback item',
    ],
    services: ['feedback-api'],
  },
  'vague.json': {
    id: 'S-2',
    title: 'Improve stuff',
    description: 'Make it better.',
    acceptance_criteria: ['It works'],
  },
};

// The CLI's figures, written independently: two decimals, a sign, a true minus sign.
const two = (value: number | null) => (value === null ? '—' : value.toFixed(2));
const sign = (value: number | null) => {
  if (value === null) return '—';
  const magnitude = Math.abs(value).toFixed(2);
  if (Number(magnitude) === 0) return magnitude;
  return `${value > 0 ? '+' : '−'}${magnitude}`;
};

interface Shown {
  run: RunRecord;
  iterations: IterationRecord[];
}

interface ShownIteration {
  iteration: IterationRecord;
  evaluation: { summary: IterationEvaluationSummary; log: unknown };
}

/** Dual-mode evaluation through the `ralph` CLI: a real run on the local stack, offline judge. */
describe('CLI: ralph with dual-mode evaluation', () => {
  let dataDir: string;
  let fixtures: string;
  let savedKey: string | undefined;
  const cleanups: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    savedKey = process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    dataDir = await mkdtemp(join(tmpdir(), 'ralph-cli-eval-'));
    fixtures = await mkdtemp(join(tmpdir(), 'ralph-cli-eval-stories-'));
    for (const [name, story] of Object.entries(STORIES))
      await writeFile(join(fixtures, name), JSON.stringify(story));
  });

  afterAll(async () => {
    if (savedKey !== undefined) process.env.ANTHROPIC_API_KEY = savedKey;
    await Promise.all(cleanups.map((cleanup) => cleanup()));
    await rm(dataDir, { recursive: true, force: true });
    await rm(fixtures, { recursive: true, force: true });
  });

  const cli = (...args: string[]) => runCli([...args, '--data-dir', dataDir]);

  /** A repository whose config evaluates every iteration with the two stories above. */
  async function evaluatingRepo(
    project: string,
    stories: number,
    evaluation: Record<string, unknown> = {},
  ): Promise<string> {
    const config = {
      evaluation: {
        enabled: true,
        suite: { command: `cp "${fixtures}"/*.json "$${SUITE_OUTPUT_ENV}"/` },
        ...evaluation,
      },
    };
    const made = await makeGitRepo({
      'prd.json': JSON.stringify(makePrd(stories, { project })),
      'ralph.config.json': JSON.stringify(config),
    });
    cleanups.push(made.cleanup);
    return made.path;
  }

  async function runAndShow(
    repo: string,
  ): Promise<{ result: CliResult; runId: string; shown: Shown }> {
    const result = await cli('run', '--repo', repo, '--agent', WRITING_AGENT);
    expect(result.exitCode, result.stderr).toBe(0);
    const runId = /^run (\S+) · /m.exec(result.stdout)?.[1];
    if (!runId) throw new Error(`no run id in\n${result.stdout}`);
    const shown = jsonOf<Shown>(await cli('show', runId, '--json'));
    return { result, runId, shown };
  }

  function summaryOf(iteration: IterationRecord | undefined): IterationEvaluationSummary {
    if (!iteration?.evaluation) throw new Error(`iteration ${iteration?.iteration} has no summary`);
    return iteration.evaluation;
  }

  /** The run's live line of one iteration. */
  function liveLine(stdout: string, iteration: number): string {
    const lines = stdout.split('\n').filter((line) => line.startsWith(`#${iteration} `));
    expect(lines, stdout).toHaveLength(1);
    return lines[0] ?? '';
  }

  describe('a run that does not converge', () => {
    let run: Awaited<ReturnType<typeof runAndShow>>;
    beforeAll(async () => {
      run = await runAndShow(await evaluatingRepo('Evaluated', 2));
    });

    it('says on its first line that the offline judge evaluates', () => {
      expect(run.result.stdout.split('\n')[0]).toMatch(
        /^ralph-cloud · local stack · agent: .+ · judge: offline judge \(a deterministic stand-in, not a model\)/,
      );
    });

    it("prints each iteration's live line once its evaluation is stored, with its figures", () => {
      // Prepare
      const { iterations } = run.shown;
      expect(iterations.map((iteration) => iteration.outcome)).toEqual(['passed', 'passed']);

      // Assess
      for (const iteration of iterations) {
        const summary = summaryOf(iteration);
        const delta = summary.gapDelta === null ? '' : ` (Δ ${sign(summary.gapDelta)})`;
        expect(liveLine(run.result.stdout, iteration.iteration)).toContain(
          `judge ${two(summary.expensiveAvg)} · cheap ${two(summary.cheapAvg)} · gap ${sign(summary.gap)}${delta} · patterns ${summary.activePatterns} active, ${summary.provisionalPatterns} provisional`,
        );
      }
      expect(summaryOf(iterations[0]).gapDelta).toBeNull();
      expect(liveLine(run.result.stdout, 1)).not.toContain('Δ');
      expect(liveLine(run.result.stdout, 2)).toContain('(Δ ');
      expect(run.result.stdout).not.toContain('converged ✓');
      // Two stories are too few for rho and kappa to mean anything, and the line says so.
      expect(liveLine(run.result.stdout, 2)).toContain(
        `not converged: ${summaryOf(iterations[1]).convergence}`,
      );
      expect(summaryOf(iterations[1]).convergence).toContain(
        'too few artefacts to measure agreement: 2 < 5',
      );
    });

    it('shows the evaluation table and why the run has not converged', async () => {
      // Act
      const shown = await cli('show', run.runId);

      // Assess
      expect(shown.exitCode, shown.stderr).toBe(0);
      const text = stripVTControlCharacters(shown.stdout);
      expect(text).toContain('dual-mode evaluation');
      expect(text).toMatch(
        /│ # │ judge │ cheap │ gap +│ Δ +│ MAE +│ ρ +│ QWK +│ coverage │ patterns │ actions │ converged │/,
      );
      const first = summaryOf(run.shown.iterations[0]);
      // The first row of the table under the evaluation heading (the loop-control table
      // above it has rows numbered the same).
      const evaluation = text.slice(text.indexOf('dual-mode evaluation'));
      const row = evaluation.split('\n').find((line) => line.startsWith('│ 1 │'));
      expect(
        row
          ?.split('│')
          .slice(1, -1)
          .map((cell) => cell.trim()),
      ).toEqual([
        '1',
        two(first.expensiveAvg),
        two(first.cheapAvg),
        sign(first.gap),
        '—',
        two(first.mae),
        two(first.spearman),
        two(first.qwk),
        first.coverage === null ? '—' : `${Math.round(first.coverage * 100)}%`,
        `${first.activePatterns} / ${first.provisionalPatterns}`,
        first.actions.join(', ') || '—',
        '✗',
      ]);
      const last = summaryOf(run.shown.iterations[1]);
      expect(text).toContain(`not converged after iteration 2: ${last.convergence}`);
    });

    it('prints the "Iteration 1 Results" block with the stored numbers', async () => {
      // Act
      const shown = await cli('show', run.runId, '--iteration', '1');

      // Assess
      expect(shown.exitCode, shown.stderr).toBe(0);
      const summary = summaryOf(run.shown.iterations[0]);
      const block = shown.stdout.slice(shown.stdout.indexOf('=== Iteration 1 Results ==='));
      expect(block).toContain(
        [
          '=== Iteration 1 Results ===',
          '',
          'EXPENSIVE MODE:',
          `  Gestalt avg: ${two(summary.expensiveAvg)}`,
          `  Evaluated: ${summary.judged} ok, ${summary.judgeFailed} failed (0%)`,
        ].join('\n'),
      );
      expect(block).toContain(`CHEAP MODE:\n  Gestalt avg: ${two(summary.cheapAvg)}\n`);
      expect(block).toContain(
        `  Patterns: ${summary.activePatterns} active, ${summary.provisionalPatterns} provisional (set v${summary.patternSetVersion})`,
      );
      expect(block).toContain(`GAP ANALYSIS:\n  Gap: ${two(summary.gap)} (target: <= 0.5)`);
      expect(block).toContain('  Delta: — (no previous gap)');
      expect(block).toContain(
        `  Agreement: MAE ${two(summary.mae)}, Spearman ${two(summary.spearman)}, QWK ${two(summary.qwk)}`,
      );
      expect(block).toContain(
        `PATTERN LEARNING:\n  Proposed ${summary.patternsProposed}, committed ${summary.patternsCommitted}, rejected ${summary.patternsRejected}`,
      );
      expect(block).toContain(`  Next iteration scores with: v${summary.nextPatternSetVersion}`);
      for (const heading of [
        'COMPONENT HEALTH:',
        'DIVERGENCE:',
        'ACTIONS TAKEN:',
        'CONVERGENCE:',
        'DECISION: ',
      ])
        expect(block).toContain(`\n${heading}`);
      for (const flag of summary.healthFlags) {
        const [component, name] = flag.split(': ');
        expect(block).toMatch(new RegExp(`✗ ${component}: .*${name}`));
      }
    });

    it('prints the stored log and summary as JSON', async () => {
      // Act
      const shown = jsonOf<ShownIteration>(
        await cli('show', run.runId, '--iteration', '1', '--json'),
      );

      // Assess
      const summary = summaryOf(run.shown.iterations[0]);
      expect(shown.evaluation.summary).toEqual(summary);
      expect(shown.iteration.evaluation).toEqual(summary);
      const log = IterationLogSchema.parse(shown.evaluation.log);
      expect(log.iteration).toBe(1);
      expect(log.metrics).toMatchObject({
        expensiveAvg: summary.expensiveAvg,
        cheapAvg: summary.cheapAvg,
        gap: summary.gap,
      });
      expect(shown.evaluation.log).toHaveProperty('nextPatternSetVersion');
    });
  });

  it('marks the live line of the iteration that converged, and shows where the proof is', async () => {
    // Prepare: thresholds any two iterations over the same two stories meet.
    const repo = await evaluatingRepo('Converging', 2, {
      convergence: {
        cheapThreshold: 1,
        gapThreshold: 4,
        minSpearman: -1,
        minQwk: -1,
        minAgreementArtefacts: 2,
      },
    });

    // Act
    const { result, runId, shown } = await runAndShow(repo);
    const text = await cli('show', runId);

    // Assess
    expect(summaryOf(shown.iterations[1]).converged).toBe(true);
    expect(liveLine(result.stdout, 1)).not.toContain('converged ✓');
    // By which rules, with the window's weakest figures.
    const rules =
      /cheap ≥ 1\.0 \(\d\.\d\d\), \|gap\| ≤ 4\.0 \(\d\.\d\d\), ρ ≥ -1\.0 \(-?\d\.\d\d\), QWK ≥ -1\.0 \(-?\d\.\d\d\) over 2 iterations/;
    expect(liveLine(result.stdout, 2)).toMatch(new RegExp(` · converged ✓: ${rules.source}$`));
    expect(shown.run.evaluation).toMatchObject({ converged: true, convergedIteration: 2 });
    // The proof as a command that prints it, not a file of the emulator's.
    const proof = new RegExp(`^converged at iteration 2: ${rules.source} · proof: (.+)$`, 'm').exec(
      text.stdout,
    )?.[1];
    expect(proof, text.stdout).toMatch(
      new RegExp(`^ralph show ${runId} --artefact convergence-proof\\.json --data-dir `),
    );
    const shownProof = await cli(...(proof ?? '').split(' ').slice(1));
    expect(shownProof.exitCode, shownProof.stderr).toBe(0);
    expect(JSON.parse(shownProof.stdout)).toMatchObject({ runId, iteration: 2 });
    const block = (await cli('show', runId, '--iteration', '2')).stdout;
    expect(block).toContain('  Converged ✓');
  });

  it('prints one JSON document for a run under --json, its iterations with their summaries', async () => {
    // Prepare
    const repo = await evaluatingRepo('As JSON', 1);

    // Act
    const result = await cli('run', '--repo', repo, '--agent', WRITING_AGENT, '--json');

    // Assess
    expect(result.exitCode, result.stderr).toBe(0);
    const { run, iterations } = jsonOf<Shown>(result);
    expect(run.evaluation?.lastAnalysedIteration).toBe(1);
    expect(iterations).toHaveLength(1);
    expect(summaryOf(iterations[0]).logKey).toBe(`runs/${run.runId}/iterations/1/log.json`);
  });
});
