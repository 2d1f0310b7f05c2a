import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CalibrationReport } from '../../bin/cli/calibration-render.js';
import { parseCsv } from '../../lambdas/core/calibration/csv.js';
import type { LabelAgreement } from '../../lambdas/core/calibration/label-agreement.js';
import { PatternSetSchema } from '../../lambdas/core/schemas/evaluation.js';
import type { EvaluationOutcome } from '../../lambdas/core/steps/evaluate-artefacts.js';
import { jsonOf, runCli } from '../support/cli.js';

const USTAI = 'test/fixtures/stories/ustai';
const TEST_CSV = `${USTAI}/test.csv`;

/** `ralph eval --labels` and `ralph eval calibrate`: the real CLI on the UStAI split. */
describe('CLI: ralph eval with human labels', () => {
  let scratch: string;
  /** The first `rows` stories of a split file, as a file of their own. */
  const head = async (name: string, rows: number) => {
    const csv = parseCsv(await readFile(`${USTAI}/${name}`, 'utf8'), name);
    const path = join(scratch, `head-${rows}-${name}`);
    const records = [csv.header, ...csv.records.slice(0, rows)];
    await writeFile(path, records.map((record) => `${record.raw}\r\n`).join(''));
    return path;
  };

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'ralph-eval-labels-'));
  });
  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it('measures the cheap mode on the UStAI test file: a kappa per criterion, counts summing to 420', async () => {
    // Act
    const result = await runCli([
      'eval',
      TEST_CSV,
      '--mode',
      'cheap',
      '--labels',
      TEST_CSV,
      '--json',
    ]);

    // Assess
    expect(result.exitCode, result.stderr).toBe(0);
    const { cheap, labels } = jsonOf<EvaluationOutcome & { labels: LabelAgreement }>(result);
    expect(cheap).toHaveLength(420);
    expect(labels).toMatchObject({ stories: 420, matched: 420, matchBy: 'id', unmatchedRows: [] });
    expect(labels.unlabelledStories).toEqual([]);
    expect(labels.renamedIds).toEqual([{ line: 99, id: 'A9US9Ll', as: 'A9US9Ll#2' }]);
    expect(labels.criteria.map((row) => row.name)).toEqual([
      'atomic',
      'minimal',
      'conceptually-sound',
      'problem-oriented',
      'unambiguous',
      'unique',
    ]);
    for (const row of [...labels.criteria, labels.anySyntactic!, labels.anyDefect]) {
      const { tp, fp, fn, tn } = row.confusion;
      expect(tp + fp + fn + tn, row.name).toBe(row.labelled);
      expect(row.labelled + row.unlabelled, row.name).toBe(420);
      expect(row).toHaveProperty('kappa');
      expect(row).toHaveProperty('auc');
    }
    // Every story is labelled atomic and minimal in UStAI: "any syntactic" covers all 420.
    expect(labels.anySyntactic).toMatchObject({ criteria: ['atomic', 'minimal'], labelled: 420 });
    expect(labels.anySyntactic?.auc).not.toBeNull();
    // The human labels, read as they are: 58 conjunctions in the test abstracts.
    const atomic = labels.criteria[0]!;
    expect(atomic.confusion.tp + atomic.confusion.fn).toBe(58);
    expect(atomic.kinds.map((kind) => kind.kind)).toEqual(['conjunctions']);
  });

  it('prints a kappa row for each labelled criterion and both aggregates', async () => {
    const result = await runCli(['eval', TEST_CSV, '--mode', 'cheap', '--labels', TEST_CSV]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      `Human labels: ${TEST_CSV} · matched by id · 420 of 420 stories labelled`,
    );
    const rows = new Map(
      result.stdout
        .split('\n')
        .filter((line) => line.startsWith('│ '))
        .map((line) =>
          line
            .split('│')
            .slice(1, -1)
            .map((cell) => cell.trim()),
        )
        .map((cells) => [cells[0], cells.slice(1)] as const),
    );
    expect(rows.get('criterion')).toEqual([
      'labelled',
      'defects',
      'tp',
      'fp',
      'fn',
      'tn',
      'precision',
      'recall',
      'κ',
      'AUC',
    ]);
    for (const name of [
      'atomic',
      'minimal',
      'conceptually-sound',
      'problem-oriented',
      'unambiguous',
      'unique',
      'any syntactic defect',
      'any defect',
    ]) {
      const [labelled, , tp, fp, fn, tn, , , kappa] = rows.get(name) ?? [];
      expect(Number(tp) + Number(fp) + Number(fn) + Number(tn), name).toBe(Number(labelled));
      expect(kappa, name).toMatch(/^(-?\d\.\d\d|—)$/);
    }
    // The labels section is plain text when piped (the per-artefact table above is not ours).
    expect(result.stdout.slice(result.stdout.indexOf('Human labels:'))).not.toContain('\u001b[');
  });

  it("scores Ralph's prd.json and a file of one story per line", async () => {
    // Prepare
    const prd = join(scratch, 'prd.json');
    await copyFile('test/fixtures/ralph/prd.json.example', prd);
    const lines = join(scratch, 'backlog.txt');
    await writeFile(
      lines,
      '# backlog\nAs a driver, I want the car to brake and to steer.\n\nAs a planner, I want maps (AVs).\n',
    );

    // Act
    const fromPrd = jsonOf<EvaluationOutcome>(
      await runCli(['eval', prd, '--mode', 'cheap', '--json']),
    );
    const fromLines = jsonOf<EvaluationOutcome>(
      await runCli(['eval', lines, '--mode', 'cheap', '--json']),
    );

    // Assess
    expect(fromPrd.cheap?.map((result) => result.artefactId)).toEqual([
      'US-001',
      'US-002',
      'US-003',
      'US-004',
    ]);
    expect(fromLines.cheap?.map((result) => result.artefactId)).toEqual(['line-2', 'line-4']);
  });

  it('refuses --labels with the expensive mode, and a label file that labels nothing (exit 2)', async () => {
    const expensive = await runCli(['eval', TEST_CSV, '--mode', 'expensive', '--labels', TEST_CSV]);
    expect(expensive.exitCode).toBe(2);
    expect(expensive.stderr).toContain('--labels measures the cheap mode');
    const nothing = join(scratch, 'nothing.csv');
    await writeFile(nothing, 'id,story\nA1,s\n');
    const unlabelled = await runCli(['eval', TEST_CSV, '--mode', 'cheap', '--labels', nothing]);
    expect(unlabelled.exitCode).toBe(2);
    expect(unlabelled.stderr).toContain('no column names a QUS criterion');
  });

  it('calibrate refuses a train and a test file that share stories, writing nothing', async () => {
    const train = await head('test.csv', 20);
    const out = join(scratch, 'never.json');
    const result = await runCli([
      'eval',
      'calibrate',
      '--train',
      train,
      '--test',
      TEST_CSV,
      '--out',
      out,
    ]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`${train} and ${TEST_CSV} share 20 stories`);
    expect(result.stderr).toContain(`id "A3US1Ge": ${train} line 2, ${TEST_CSV} line 2`);
    await expect(readFile(out)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('calibrate writes a pattern set with a qus section, and will not overwrite it without --force', async () => {
    // Prepare
    const [train, test] = [await head('train.csv', 60), await head('test.csv', 40)];
    const out = join(scratch, 'fitted.json');

    // Act
    const result = await runCli([
      'eval',
      'calibrate',
      '--train',
      train,
      '--test',
      test,
      '--out',
      out,
      '--json',
    ]);

    // Assess
    expect(result.exitCode, result.stderr).toBe(0);
    const report = jsonOf<CalibrationReport>(result);
    expect(report.onTest.start.stories).toBe(40);
    expect(report.onTest.fitted.anySyntactic?.labelled).toBe(40);
    const set = PatternSetSchema.parse(JSON.parse(await readFile(out, 'utf8')));
    expect(set.qus).toEqual(report.fit.fitted);
    expect(set.reason).toMatch(/fitted by ralph eval calibrate/);
    const again = await runCli([
      'eval',
      'calibrate',
      '--train',
      train,
      '--test',
      test,
      '--out',
      out,
    ]);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain(`${out} already exists; pass --force to overwrite it`);
    const forced = await runCli([
      'eval',
      'calibrate',
      '--train',
      train,
      '--test',
      test,
      '--out',
      out,
      '--force',
    ]);
    expect(forced.exitCode, forced.stderr).toBe(0);
    expect(forced.stdout).toContain(`Wrote the pattern set with the fitted settings to ${out}`);
  });
});
