import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../lambdas/core/errors.js';
import {
  computeProgressSignals,
  parseNumstat,
  type GateObservation,
  type IterationObservationInput,
} from '../../lambdas/core/control/signals/progress-signals.js';
import { ProgressSignalsSchema } from '../../lambdas/core/schemas/progress-signals.js';

const STARTED_AT = '2026-01-16T14:00:00Z';
const NOW = '2026-01-16T14:30:00Z';

const VITEST_BEFORE = ` Test Files  1 failed | 3 passed (4)
      Tests  2 failed | 10 passed (12)
   Duration  1.42s`;
const VITEST_AFTER = ` Test Files  4 passed (4)
      Tests  14 passed (14)
   Duration  1.51s`;
const ESLINT_BEFORE = '\n✖ 7 problems (2 errors, 5 warnings)\n';
const ESLINT_AFTER = '\n✖ 3 problems (1 error, 2 warnings)\n';

function gate(overrides: Partial<GateObservation> & { name: string }): GateObservation {
  return {
    blocking: true,
    passed: true,
    exitCode: 0,
    timedOut: false,
    durationMs: 1200,
    outputTail: '',
    ...overrides,
  };
}

function observation(
  overrides: Partial<IterationObservationInput> = {},
): IterationObservationInput {
  return {
    iteration: 5,
    taskId: 'US-002',
    previousTaskId: 'US-002',
    outcome: 'gates_failed',
    filesChanged: [],
    taskStartedIteration: 3,
    taskStartedAt: STARTED_AT,
    now: NOW,
    ...overrides,
  };
}

describe('Function: parseNumstat', () => {
  it('sums lines, lists binaries without lines, and resolves renames to the new path', () => {
    // Prepare
    const numstat = [
      '12\t3\tlambdas/core/cart.ts',
      '40\t0\ttest/unit/cart.test.ts',
      '-\t-\tassets/logo.png',
      '2\t2\tsrc/{old => new}/util.ts',
      '0\t5\tdocs/a.md => docs/b.md',
      'warning: not a numstat line',
      '',
    ].join('\n');

    // Act
    const parsed = parseNumstat(numstat);

    // Assess
    expect(parsed.linesAdded).toBe(54);
    expect(parsed.linesRemoved).toBe(10);
    expect(parsed.files).toEqual([
      { path: 'lambdas/core/cart.ts', added: 12, removed: 3 },
      { path: 'test/unit/cart.test.ts', added: 40, removed: 0 },
      { path: 'assets/logo.png' },
      { path: 'src/new/util.ts', added: 2, removed: 2 },
      { path: 'docs/b.md', added: 0, removed: 5 },
    ]);
  });

  it('resolves a rename out of a directory to a path without a doubled slash', () => {
    expect(parseNumstat('1\t1\tsrc/{lib => }/a.ts\n').files[0]?.path).toBe('src/a.ts');
  });

  it('gives zeros for empty output', () => {
    expect(parseNumstat('')).toEqual({ linesAdded: 0, linesRemoved: 0, files: [] });
  });
});

describe('Function: computeProgressSignals', () => {
  describe('git and file level', () => {
    it('counts the commit, the lines and each kind of file changed', () => {
      // Act
      const signals = computeProgressSignals(
        observation({
          outcome: 'passed',
          commit: 'a1b2c3d',
          linesAdded: 54,
          linesRemoved: 10,
          filesChanged: [
            'lambdas/core/cart.ts',
            'lambdas/core/price.ts',
            'test/unit/cart.test.ts',
            'README.md',
            'package.json',
          ],
        }),
      );

      // Assess
      expect(ProgressSignalsSchema.parse(signals)).toEqual(signals);
      expect(signals).toMatchObject({
        commitsAdded: 1,
        linesChanged: 64,
        sourceFilesModified: 2,
        testFilesModified: 1,
        docFilesModified: 1,
        configFilesModified: 1,
        uniqueFilesTouched: 5,
        taskCompleted: true,
      });
    });

    it('has no commit, no completed task and no line count when none is given', () => {
      const signals = computeProgressSignals(observation({ filesChanged: ['src/a.ts'] }));
      expect(signals.commitsAdded).toBe(0);
      expect(signals.taskCompleted).toBe(false);
      expect(signals.linesChanged).toBeUndefined();
    });

    it('counts a file named twice, or spelled two ways, once', () => {
      const signals = computeProgressSignals(
        observation({ filesChanged: ['src/a.ts', './src/a.ts', 'src\\a.ts'] }),
      );
      expect(signals.uniqueFilesTouched).toBe(1);
      expect(signals.sourceFilesModified).toBe(1);
    });
  });

  describe('quality level', () => {
    const baselineGateCounts = {
      test: {
        tests: { passed: 10, failed: 2, skipped: 0, total: 12, frameworks: ['vitest' as const] },
      },
      lint: { diagnostics: { errors: 2, warnings: 5, tools: ['eslint' as const] } },
    };

    it('gives test and warning deltas against the baseline, gate by gate', () => {
      // Act
      const signals = computeProgressSignals(
        observation({
          gates: [
            gate({ name: 'test', outputTail: VITEST_AFTER }),
            gate({ name: 'lint', outputTail: ESLINT_AFTER, passed: false, exitCode: 1 }),
          ],
          baselineGateCounts,
        }),
      );

      // Assess
      expect(signals.testsAdded).toBe(2);
      expect(signals.testsPassingDelta).toBe(4);
      expect(signals.warningsDelta).toBe(-3);
      expect(signals.errorsDelta).toBe(-1);
      expect(signals.gateCounts.test?.tests?.passed).toBe(14);
    });

    it('gives a negative passing delta and no added tests when tests were lost', () => {
      const signals = computeProgressSignals(
        observation({
          gates: [gate({ name: 'test', outputTail: ' Tests  1 failed | 8 passed (9)' })],
          baselineGateCounts,
        }),
      );
      expect(signals.testsPassingDelta).toBe(-2);
      expect(signals.testsAdded).toBe(0);
    });

    it('leaves deltas undefined when the output is not recognised, never 0', () => {
      const signals = computeProgressSignals(
        observation({
          gates: [
            gate({ name: 'test', outputTail: 'Segmentation fault (core dumped)', passed: false }),
          ],
          baselineGateCounts,
        }),
      );
      expect(signals.testsAdded).toBeUndefined();
      expect(signals.testsPassingDelta).toBeUndefined();
      expect(signals.warningsDelta).toBeUndefined();
      expect(signals.gateCounts).toEqual({});
    });

    it('leaves deltas undefined for a gate the baseline does not know', () => {
      const signals = computeProgressSignals(
        observation({
          gates: [gate({ name: 'unit', outputTail: VITEST_AFTER })],
          baselineGateCounts,
        }),
      );
      expect(signals.testsPassingDelta).toBeUndefined();
    });

    it('prefers the full output to the tail when both are given', () => {
      const signals = computeProgressSignals(
        observation({
          gates: [gate({ name: 'test', outputTail: 'Duration 1.5s', output: VITEST_AFTER })],
          baselineGateCounts,
        }),
      );
      expect(signals.testsPassingDelta).toBe(4);
    });

    it('reads an empty output of a passing tsc gate as 0 errors, of a failing one as unknown', () => {
      // Prepare
      const baseline = {
        types: { diagnostics: { errors: 3, warnings: 0, tools: ['tsc' as const] } },
      };
      const tsc = { name: 'types', command: 'npx tsc --noEmit -p .', outputTail: '' };

      // Act
      const clean = computeProgressSignals(
        observation({ gates: [gate(tsc)], baselineGateCounts: baseline }),
      );
      const crashed = computeProgressSignals(
        observation({
          gates: [gate({ ...tsc, passed: false, exitCode: 137 })],
          baselineGateCounts: baseline,
        }),
      );
      const timedOut = computeProgressSignals(
        observation({ gates: [gate({ ...tsc, timedOut: true })], baselineGateCounts: baseline }),
      );

      // Assess
      expect(clean.errorsDelta).toBe(-3);
      expect(crashed.errorsDelta).toBeUndefined();
      expect(timedOut.errorsDelta).toBeUndefined();
    });

    it('moves the baseline only when the iteration passed (a failed change is reset)', () => {
      // Prepare
      const gates = [gate({ name: 'test', outputTail: VITEST_AFTER })];

      // Act
      const failed = computeProgressSignals(observation({ gates, baselineGateCounts }));
      const passed = computeProgressSignals(
        observation({ gates, baselineGateCounts, outcome: 'passed', commit: 'a1b2c3d' }),
      );

      // Assess
      expect(failed.nextBaselineGateCounts).toEqual(baselineGateCounts);
      expect(passed.nextBaselineGateCounts).toEqual({
        test: { tests: { passed: 14, failed: 0, skipped: 0, total: 14, frameworks: ['vitest'] } },
        lint: baselineGateCounts.lint,
      });
    });

    it('keeps the baseline part a passing gate did not report', () => {
      const signals = computeProgressSignals(
        observation({
          outcome: 'passed',
          commit: 'a1b2c3d',
          gates: [gate({ name: 'lint', outputTail: VITEST_BEFORE })],
          baselineGateCounts,
        }),
      );
      expect(signals.nextBaselineGateCounts.lint).toEqual({
        diagnostics: baselineGateCounts.lint.diagnostics,
        tests: { passed: 10, failed: 2, skipped: 0, total: 12, frameworks: ['vitest'] },
      });
    });

    it('reads eslint summaries too', () => {
      const signals = computeProgressSignals(
        observation({
          gates: [gate({ name: 'lint', outputTail: ESLINT_BEFORE })],
          baselineGateCounts: {
            lint: { diagnostics: { errors: 2, warnings: 5, tools: ['eslint'] } },
          },
        }),
      );
      expect(signals.warningsDelta).toBe(0);
      expect(signals.errorsDelta).toBe(0);
    });
  });

  describe('task level', () => {
    it('counts iterations and time on the task, this iteration included', () => {
      const signals = computeProgressSignals(observation());
      expect(signals.currentTaskIterations).toBe(3);
      expect(signals.currentTaskMs).toBe(30 * 60 * 1000);
    });

    it('counts 1 iteration on a task started in this iteration', () => {
      const signals = computeProgressSignals(observation({ taskStartedIteration: 5 }));
      expect(signals.currentTaskIterations).toBe(1);
    });

    it('rejects a task that started after the observed iteration', () => {
      expect(() => computeProgressSignals(observation({ taskStartedIteration: 6 }))).toThrow(
        InvalidInputError,
      );
    });

    it('clamps the time on the task at 0 when the clocks disagree', () => {
      const signals = computeProgressSignals(observation({ now: '2026-01-16T13:59:59Z' }));
      expect(signals.currentTaskMs).toBe(0);
    });

    it('notes a task switch and counts it on top of the earlier ones', () => {
      // Act
      const switched = computeProgressSignals(
        observation({ previousTaskId: 'US-001', taskSwitchesBefore: 2, taskStartedIteration: 5 }),
      );
      const same = computeProgressSignals(observation({ taskSwitchesBefore: 2 }));
      const first = computeProgressSignals(observation({ previousTaskId: undefined }));

      // Assess
      expect([switched.taskSwitched, switched.taskSwitchCount]).toEqual([true, 3]);
      expect([same.taskSwitched, same.taskSwitchCount]).toEqual([false, 2]);
      expect([first.taskSwitched, first.taskSwitchCount]).toEqual([false, 0]);
    });
  });

  describe('repeated edits without a commit', () => {
    it('lists a file changed for the 3rd time without a commit, not the 2nd', () => {
      // Act
      const second = computeProgressSignals(
        observation({
          filesChanged: ['src/a.ts', 'src/b.ts'],
          uncommittedEdits: { 'src/a.ts': 1 },
        }),
      );
      const third = computeProgressSignals(
        observation({
          filesChanged: ['src/a.ts', 'src/b.ts'],
          uncommittedEdits: second.nextUncommittedEdits,
        }),
      );

      // Assess
      expect(second.repeatedEditFiles).toEqual([]);
      expect(second.nextUncommittedEdits).toEqual({ 'src/a.ts': 2, 'src/b.ts': 1 });
      expect(third.repeatedEditFiles).toEqual(['src/a.ts']);
      expect(third.nextUncommittedEdits).toEqual({ 'src/a.ts': 3, 'src/b.ts': 2 });
    });

    it('honours a configured threshold at and around its value', () => {
      // Prepare
      const at = (count: number) =>
        computeProgressSignals(
          observation({ filesChanged: ['src/a.ts'], uncommittedEdits: { 'src/a.ts': count - 1 } }),
          { repeatedEditThreshold: 4 },
        ).repeatedEditFiles;

      // Act / Assess
      expect(at(3)).toEqual([]);
      expect(at(4)).toEqual(['src/a.ts']);
      expect(at(5)).toEqual(['src/a.ts']);
    });

    it('lists only files changed now, however high an untouched file is', () => {
      const signals = computeProgressSignals(
        observation({ filesChanged: ['src/b.ts'], uncommittedEdits: { 'src/a.ts': 7 } }),
      );
      expect(signals.repeatedEditFiles).toEqual([]);
      expect(signals.nextUncommittedEdits).toEqual({ 'src/a.ts': 7, 'src/b.ts': 1 });
    });

    it('clears every count when the iteration commits', () => {
      const signals = computeProgressSignals(
        observation({
          outcome: 'passed',
          commit: 'a1b2c3d',
          filesChanged: ['src/a.ts'],
          uncommittedEdits: { 'src/a.ts': 2, 'src/b.ts': 5 },
        }),
      );
      expect(signals.repeatedEditFiles).toEqual([]);
      expect(signals.nextUncommittedEdits).toEqual({});
    });
  });

  describe('exploration breadth', () => {
    it.each([
      [[], 0],
      [['src/a.ts'], 0],
      [['src/cart/a.ts', 'src/cart/b.ts', 'src/cart/c.ts'], 0],
      [['src/cart/a.ts', 'src/cart/b.ts', 'docs/guide/c.md'], 0.5],
      [['src/cart/a.ts', 'lib/x/b.ts', 'docs/guide/c.md'], 1],
      [['README.md', 'package.json'], 0],
    ])('of %j is %d', (files, breadth) => {
      expect(computeProgressSignals(observation({ filesChanged: files })).explorationBreadth).toBe(
        breadth,
      );
    });

    it('uses the configured area depth', () => {
      // Prepare
      const files = ['lambdas/core/a/x.ts', 'lambdas/core/b/y.ts'];

      // Act / Assess
      expect(computeProgressSignals(observation({ filesChanged: files })).explorationBreadth).toBe(
        0,
      );
      expect(
        computeProgressSignals(observation({ filesChanged: files }), { areaDepth: 3 })
          .explorationBreadth,
      ).toBe(1);
    });
  });

  describe('meaningful change', () => {
    it('is a counted commit, even of docs alone', () => {
      const signals = computeProgressSignals(
        observation({
          outcome: 'passed',
          commit: 'a1b2c3d',
          filesChanged: ['README.md'],
          linesAdded: 1,
        }),
      );
      expect(signals.meaningfulChange).toBe(true);
    });

    it('is more passing tests without a commit, even with no files listed', () => {
      const signals = computeProgressSignals(
        observation({
          gates: [gate({ name: 'test', outputTail: VITEST_AFTER })],
          baselineGateCounts: {
            test: {
              tests: { passed: 13, failed: 1, total: 14, skipped: 0, frameworks: ['vitest'] },
            },
          },
        }),
      );
      expect(signals.testsPassingDelta).toBe(1);
      expect(signals.meaningfulChange).toBe(true);
    });

    it('is not an equal number of passing tests alone', () => {
      const signals = computeProgressSignals(
        observation({
          gates: [gate({ name: 'test', outputTail: VITEST_AFTER })],
          baselineGateCounts: {
            test: {
              tests: { passed: 14, failed: 0, total: 14, skipped: 0, frameworks: ['vitest'] },
            },
          },
        }),
      );
      expect(signals.meaningfulChange).toBe(false);
    });

    it('is an uncommitted source or test change', () => {
      expect(
        computeProgressSignals(observation({ filesChanged: ['src/a.ts'], linesAdded: 4 }))
          .meaningfulChange,
      ).toBe(true);
      expect(
        computeProgressSignals(observation({ filesChanged: ['test/a.test.ts'], linesAdded: 4 }))
          .meaningfulChange,
      ).toBe(true);
    });

    it('is not an uncommitted change of docs, config or bookkeeping alone', () => {
      const signals = computeProgressSignals(
        observation({
          filesChanged: ['README.md', 'package.json', 'progress.txt'],
          linesAdded: 30,
        }),
      );
      expect(signals.meaningfulChange).toBe(false);
    });

    it('is not a source file reworked for the threshold-th time without a commit', () => {
      // Act
      const reworked = computeProgressSignals(
        observation({
          filesChanged: ['src/a.ts'],
          linesAdded: 9,
          uncommittedEdits: { 'src/a.ts': 2 },
        }),
      );
      const withFresh = computeProgressSignals(
        observation({
          filesChanged: ['src/a.ts', 'src/b.ts'],
          linesAdded: 9,
          uncommittedEdits: { 'src/a.ts': 2 },
        }),
      );

      // Assess
      expect(reworked.repeatedEditFiles).toEqual(['src/a.ts']);
      expect(reworked.meaningfulChange).toBe(false);
      expect(withFresh.meaningfulChange).toBe(true);
    });

    it('needs meaningfulMinLines changed lines: one short, exactly, one over', () => {
      // Prepare
      const at = (lines: number) =>
        computeProgressSignals(
          observation({ filesChanged: ['src/a.ts'], linesAdded: lines, linesRemoved: 0 }),
          { meaningfulMinLines: 5 },
        ).meaningfulChange;

      // Act / Assess
      expect(at(4)).toBe(false);
      expect(at(5)).toBe(true);
      expect(at(6)).toBe(true);
    });

    it('with the default of 1 line: 0 lines is not meaningful, 1 is', () => {
      const at = (lines: number) =>
        computeProgressSignals(observation({ filesChanged: ['src/a.ts'], linesRemoved: lines }))
          .meaningfulChange;
      expect(at(0)).toBe(false);
      expect(at(1)).toBe(true);
    });

    it('does not check lines when the line count is unknown', () => {
      const signals = computeProgressSignals(observation({ filesChanged: ['src/a.ts'] }));
      expect(signals.meaningfulChange).toBe(true);
    });
  });

  describe('input validation', () => {
    it('throws InvalidInputError naming the bad field', () => {
      expect(() => computeProgressSignals(observation({ now: 'yesterday' }))).toThrow(/now/);
    });

    it('rejects a bad configuration', () => {
      expect(() => computeProgressSignals(observation(), { repeatedEditThreshold: 0 })).toThrow(
        InvalidInputError,
      );
    });
  });
});
