import { describe, expect, it } from 'vitest';
import {
  diffSizeScore,
  gatesScore,
  isTestPath,
  scoreChange,
  spreadScore,
} from '../../lambdas/core/cheap/change-heuristics.js';
import { diffStats } from '../../lambdas/core/shared/diff-stats.js';
import {
  ChangeArtefactSchema,
  type ChangeArtefact,
} from '../../lambdas/core/schemas/evaluation.js';
import type { GateResult } from '../../lambdas/core/schemas/gate-result.js';

const gate = (overrides: Partial<GateResult> = {}): GateResult => ({
  name: 'test',
  blocking: true,
  passed: true,
  exitCode: 0,
  timedOut: false,
  durationMs: 10,
  outputTail: '',
  ...overrides,
});

/** A unified diff that adds `added` lines to each file. */
function diffOf(files: readonly string[], added = 1): string {
  return files
    .map((file) => {
      const lines = Array.from({ length: added }, (_, i) => `+line ${i}`).join('\n');
      return `diff --git a/${file} b/${file}\n--- a/${file}\n+++ b/${file}\n@@ -0,0 +1,${added} @@\n${lines}\n`;
    })
    .join('');
}

function change(overrides: Partial<ChangeArtefact> = {}): ChangeArtefact {
  return ChangeArtefactSchema.parse({
    kind: 'change',
    id: 'US-001',
    story: {
      id: 'US-001',
      title: 'Add CSV export',
      description: 'Export invoices',
      acceptanceCriteria: ['a'],
      priority: 1,
      passes: false,
    },
    diff: diffOf(['src/export.ts', 'src/export.test.ts'], 20),
    gates: [gate()],
    ...overrides,
  });
}

describe('Function: gatesScore', () => {
  it.each([
    ['no gate ran', [], 0.5],
    ['all passed', [gate(), gate({ name: 'lint', blocking: false })], 1],
    ['a blocking gate failed', [gate({ passed: false, exitCode: 1 }), gate({ name: 'lint' })], 0],
    ['a blocking gate timed out', [gate({ passed: false, timedOut: true, exitCode: null })], 0],
    ['only an advisory gate failed', [gate(), gate({ blocking: false, passed: false })], 0.7],
  ])('%s: %d', (_, gates, score) => {
    expect(gatesScore(gates)).toBe(score);
  });
});

describe('Function: isTestPath', () => {
  it.each([
    ['test/unit/cheap.test.ts', true],
    ['lambdas/core/export.spec.tsx', true],
    ['src/__tests__/export.js', true],
    ['tests/test_export.py', true],
    ['app/export_test.py', true],
    ['pkg/export_test.go', true],
    ['spec/models/user_spec.rb', true],
    ['src/main/java/ExportTest.java', true],
    ['src/export.ts', false],
    ['docs/testing.md', false],
    ['src/contest.ts', false],
    ['src/latest/export.ts', false],
  ])('%s is a test file: %s', (path, expected) => {
    expect(isTestPath(path)).toBe(expected);
  });
});

describe('Function: diffSizeScore', () => {
  it.each([
    [0, 0],
    [1, 1],
    [200, 1],
    [201, 0.6],
    [400, 0.6],
    [401, 0.3],
    [1000, 0.3],
    [1001, 0],
  ])('%i changed lines score %d', (lines, score) => {
    expect(diffSizeScore(lines)).toBe(score);
  });
});

describe('Function: spreadScore', () => {
  it.each([
    [0, 0],
    [1, 1],
    [5, 1],
    [6, 0.6],
    [10, 0.6],
    [11, 0.3],
    [20, 0.3],
    [21, 0],
  ])('%i files score %d', (files, score) => {
    expect(spreadScore(files)).toBe(score);
  });
});

describe('Function: diffStats', () => {
  it('counts added and removed lines by hunk, so a removed "-- x" line is not a header', () => {
    // Prepare
    const diff = [
      'diff --git a/a.sql b/a.sql',
      '--- a/a.sql',
      '+++ b/a.sql',
      '@@ -1,3 +1,3 @@',
      ' keep',
      '--- a comment that was removed',
      '+++ a line that was added',
      ' keep',
      '\\ No newline at end of file',
      '',
    ].join('\n');

    // Act
    const stats = diffStats(diff);

    // Assess
    expect(stats).toEqual({
      files: ['a.sql'],
      addedLines: 1,
      removedLines: 1,
      addedText: '++ a line that was added\n',
    });
  });

  it('names a deleted file by its old path and a renamed one by its new path', () => {
    // Prepare
    const diff = [
      'diff --git a/old.ts b/old.ts',
      'deleted file mode 100644',
      '--- a/old.ts',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-gone',
      'diff --git a/from.ts b/to.ts',
      'similarity index 100%',
      'rename from from.ts',
      'rename to to.ts',
      '',
    ].join('\n');

    // Act
    const stats = diffStats(diff);

    // Assess
    expect(stats.files).toEqual(['old.ts', 'to.ts']);
    expect(stats.removedLines).toBe(1);
  });

  it('reads an empty diff as no change', () => {
    expect(diffStats('')).toEqual({ files: [], addedLines: 0, removedLines: 0, addedText: '' });
  });
});

describe('Function: scoreChange', () => {
  it('gives every point to a small, tested change whose gates passed', () => {
    // Act
    const outcome = scoreChange(change());

    // Assess
    expect(outcome.fraction).toBe(1);
    expect(outcome.reasons).toEqual([
      'gates_passed',
      'tests_added',
      'reviewable_diff',
      'focused_change',
    ]);
  });

  it('weights the gates double: a failed blocking gate costs 2 of 5', () => {
    const outcome = scoreChange(change({ gates: [gate({ passed: false })] }));
    expect(outcome.fraction).toBeCloseTo(3 / 5, 10);
    expect(outcome.reasons).not.toContain('gates_passed');
  });

  it('counts files from filesChanged as well as from the diff', () => {
    // Prepare: the diff names one source file; filesChanged adds the test.
    const artefact = change({ diff: diffOf(['src/a.ts']), filesChanged: ['src/a.test.ts'] });

    // Act
    const outcome = scoreChange(artefact);

    // Assess
    expect(outcome.reasons).toContain('tests_added');
  });

  it('marks a sprawling change: 30 files, 1,500 lines', () => {
    // Prepare
    const files = Array.from({ length: 30 }, (_, i) => `src/f${i}.ts`);

    // Act
    const outcome = scoreChange(change({ diff: diffOf(files, 50) }));

    // Assess
    expect(outcome.reasons).toEqual(['gates_passed']);
    expect(outcome.fraction).toBeCloseTo(2 / 5, 10);
  });

  it('matches patterns on added lines, the transcript summary and file paths, not removed lines', () => {
    // Prepare
    const diff = [
      'diff --git a/a.ts b/a.ts',
      '--- a/a.ts',
      '+++ b/a.ts',
      '@@ -1 +1 @@',
      '-console.log(debug)',
      '+logger.info(done)',
      '',
    ].join('\n');

    // Act
    const { text } = scoreChange(change({ diff, transcriptSummary: 'Replaced a debug print' }));

    // Assess
    expect(text).toContain('logger.info(done)');
    expect(text).toContain('Replaced a debug print');
    expect(text).toContain('a.ts');
    expect(text).not.toContain('console.log');
  });
});
