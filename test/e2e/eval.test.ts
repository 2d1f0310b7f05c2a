import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvaluationOutcome } from '../../lambdas/core/steps/evaluate-artefacts.js';
import { jsonOf, runCli } from '../support/cli.js';

const STORIES = 'examples/evaluation/stories';

/** `ralph eval`: the real SDK against the offline model server, the cheap evaluator, the gap. */
describe('CLI: ralph eval', () => {
  let scratch: string;
  let savedKey: string | undefined;
  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'ralph-eval-'));
    savedKey = process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
  });
  afterAll(async () => {
    if (savedKey !== undefined) process.env.ANTHROPIC_API_KEY = savedKey;
    await rm(scratch, { recursive: true, force: true });
  });

  it('scores a folder in both modes and compares them on the same artefacts', async () => {
    // Act
    const result = await runCli(['eval', STORIES, '--json']);

    // Assess
    expect(result.exitCode, result.stderr).toBe(0);
    const outcome = jsonOf<EvaluationOutcome>(result);
    expect(outcome.cheap?.map((cheap) => cheap.artefactId)).toEqual([
      'story-01',
      'story-02',
      'story-03',
      'story-04',
    ]);
    expect(outcome.expensive?.final.results.every((judged) => judged.result.status === 'ok')).toBe(
      true,
    );
    expect(outcome.dual?.gap.artefactIds).toHaveLength(4);
    const { expensiveAvg, cheapAvg, gap } = outcome.dual!.gap;
    expect(gap).toBeCloseTo(expensiveAvg! - cheapAvg!, 10);
  });

  it('says on its first line which judge it used, and prints the results block', async () => {
    const result = await runCli(['eval', STORIES]);
    expect(result.stdout.split('\n')[0]).toMatch(
      /judge: offline judge \(a deterministic stand-in, not a model/,
    );
    expect(result.stdout).toContain('=== Evaluation Results ===');
    expect(result.stdout).toMatch(/GAP ANALYSIS:\n {2}Gap: -?\d\.\d\d \(target: <= 0\.5\)/);
  });

  it('runs the cheap mode alone without any model', async () => {
    const outcome = jsonOf<EvaluationOutcome>(
      await runCli(['eval', STORIES, '--mode', 'cheap', '--json']),
    );
    expect(outcome.expensive).toBeUndefined();
    expect(outcome.cheap).toHaveLength(4);
  });

  it('refuses a malformed artefact with its path and the zod path, exit code 2', async () => {
    await writeFile(
      join(scratch, 'bad.json'),
      JSON.stringify({ id: 's', title: 'x', description: 'y', acceptance_criteria: 'none' }),
    );
    const result = await runCli(['eval', scratch]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('bad.json is invalid');
    expect(result.stderr).toContain('acceptance_criteria: expected array, received string');
  });
});
