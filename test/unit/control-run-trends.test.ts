import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LOOP_CONTROL_CONFIG,
  LoopControlConfigSchema,
} from '../../lambdas/core/schemas/control-config.js';
import { runTrends } from '../../lambdas/core/control/facts/run-trends.js';
import { HEALTHY_TRENDS, historyFactory } from '../support/control-history.js';

const { history, repeat } = historyFactory({
  outcome: 'passed',
  committed: true,
  meaningfulChange: true,
});
const config = DEFAULT_LOOP_CONTROL_CONFIG;

describe('Function: runTrends', () => {
  describe('what the supervisor reads', () => {
    it('reads a healthy history', () => {
      // Act
      const trends = runTrends(history({ testsPassed: 10, testsTotal: 10, warnings: 0 }), config);

      // Assess
      expect(trends).toEqual(HEALTHY_TRENDS);
    });

    it('leaves pass rate and warnings unknown until an iteration reports them', () => {
      // Act
      const trends = runTrends(history({}, {}), config);

      // Assess
      expect(trends).toMatchObject({ testPassRate: null, warningCount: null });
      expect(runTrends([], config)).toMatchObject({
        currentTaskId: undefined,
        testPassRate: null,
        warningCount: null,
        iterationsSinceCommit: 0,
        modeReturns: 0,
        repeatedErrors: [],
        iterationsWithoutProgress: 0,
      });
    });

    it('takes the latest reported pass rate and warning count', () => {
      // Prepare
      const entries = history(
        { testsPassed: 4, testsTotal: 10, warnings: 30 },
        { testsPassed: 9, testsTotal: 10, warnings: 3 },
        { testsPassed: 0, testsTotal: 0 },
        {},
      );

      // Act
      const trends = runTrends(entries, config);

      // Assess
      expect(trends).toMatchObject({ testPassRate: 0.9, warningCount: 3 });
    });

    it('counts iterations since a commit and without progress separately', () => {
      // Prepare
      const entries = history(
        {},
        { committed: false, meaningfulChange: true },
        { committed: false, meaningfulChange: false },
        { committed: false, meaningfulChange: false },
      );

      // Act
      const trends = runTrends(entries, config);

      // Assess
      expect(trends).toMatchObject({
        iterationsSinceCommit: 3,
        iterationsWithoutProgress: 2,
        iterationsWithoutMeaningfulChange: 2,
      });
    });

    it('counts back-and-forth mode switches within the window only', () => {
      // Prepare: two returns, then ten iterations later one more
      const modes = history(
        { mode: 'implementer' },
        { mode: 'debugger' },
        { mode: 'implementer' },
        { mode: 'debugger' },
        ...repeat(8, { mode: 'debugger' }),
      );

      // Act + Assess
      expect(runTrends(modes.slice(0, 4), config).modeReturns).toBe(2);
      expect(runTrends(modes, config).modeReturns).toBe(0);
    });

    it.each([1, 2, 3])('tallies an error seen %d times in the window', (times) => {
      // Prepare
      const entries = history(
        { errorSignature: 'other' },
        ...repeat(times, { errorSignature: 'error TS2345: bad', committed: false }),
      );

      // Act
      const trends = runTrends(entries, config);

      // Assess
      expect(trends.repeatedErrors[0]).toEqual({
        signature: 'error TS2345: bad',
        occurrences: times,
        lastIteration: times + 1,
      });
    });

    it('forgets an error that left the window', () => {
      // Prepare
      const entries = history({ errorSignature: 'E' }, ...repeat(9), { errorSignature: 'E' });

      // Act + Assess
      expect(runTrends(entries, config).repeatedErrors[0]?.occurrences).toBe(1);
      expect(
        runTrends(entries.slice(0, 1).concat(entries.slice(2)), config).repeatedErrors[0]
          ?.occurrences,
      ).toBe(2);
    });
  });

  describe('what the stagnation patterns read', () => {
    it("takes the window's best and latest pass rates", () => {
      // Prepare
      const rates = [100, 80, undefined].map((testsPassed) =>
        testsPassed === undefined ? {} : { testsPassed, testsTotal: 100 },
      );

      // Act + Assess
      expect(runTrends(history(...rates), config).passRateTrend).toEqual({
        best: 1,
        current: 0.8,
      });
    });

    it('takes the warnings: latest, lowest, and highest since the lowest', () => {
      // Prepare
      const entries = history({ warnings: 9 }, { warnings: 2 }, { warnings: 8 }, { warnings: 5 });

      // Act + Assess
      expect(runTrends(entries, config).warningsTrend).toEqual({
        latest: 5,
        lowest: 2,
        highestSinceLowest: 8,
      });
    });
  });

  describe('what the predictor reads, over its own spans', () => {
    it('counts files left uncommitted since the last commit', () => {
      // Prepare
      const entries = history(
        { filesTouchedUncommitted: ['old.ts'] },
        { committed: false, filesTouchedUncommitted: ['a.ts', 'a.ts', 'b.ts'] },
        { committed: false, filesTouchedUncommitted: ['a.ts'] },
      );

      // Act + Assess
      expect(runTrends(entries, config).uncommittedFiles).toEqual([
        { file: 'a.ts', touches: 2, lastIteration: 3 },
        { file: 'b.ts', touches: 1, lastIteration: 2 },
      ]);
    });

    it("measures error repetition over the predictor's window, not the stagnation window", () => {
      // Prepare: 6 iterations; the predictor's window of 5 leaves out the first
      const entries = history({ errorSignature: 'A' }, ...repeat(4, { errorSignature: 'B' }), {});

      // Act
      const trends = runTrends(entries, config);

      // Assess
      expect(trends.recentErrors).toEqual({
        iterations: 5,
        repeats: 3,
        tallies: [{ signature: 'B', occurrences: 4, lastIteration: 5 }],
        latest: 'B',
      });
      expect(trends.repeatedErrors.map((tally) => tally.signature)).toEqual(['B', 'A']);
    });

    it('compares the latest test counts with the count before them', () => {
      // Prepare
      const settings = LoopControlConfigSchema.parse({ predictor: { stagnantTestIterations: 2 } });
      const flat = history({ testsTotal: 4 }, { testsTotal: 4 }, {});
      const rising = history({ testsTotal: 4 }, { testsTotal: 5 }, {});

      // Act + Assess
      expect(runTrends(flat, settings).testCountTrend).toEqual({
        baseline: 4,
        iterations: 2,
        rose: false,
      });
      expect(runTrends(rising, settings).testCountTrend?.rose).toBe(true);
      expect(runTrends(flat.slice(0, 2), settings).testCountTrend).toBeUndefined();
    });

    it('finds the newest mode change within one task', () => {
      // Prepare
      const entries = history(
        { mode: 'implementer' },
        { mode: 'debugger' },
        { mode: 'tester', taskId: 'US-002' },
      );

      // Act + Assess
      expect(runTrends(entries, config).recentModeSwitch).toEqual({
        from: 'implementer',
        to: 'debugger',
        iteration: 2,
      });
    });
  });
});
