import { describe, expect, it } from 'vitest';
import { runTrends } from '../../lambdas/core/control/facts/run-trends.js';
import {
  DEFAULT_LOOP_CONTROL_CONFIG,
  LoopControlConfigSchema,
} from '../../lambdas/core/schemas/control-config.js';
import { describePattern, detectPatterns } from '../../lambdas/core/control/stagnation/patterns.js';
import { type StagnationPattern } from '../../lambdas/core/schemas/control-decisions.js';
import { stagnationLevel } from '../../lambdas/core/control/stagnation/level.js';
import { historyFactory, type SummaryOverrides as Overrides } from '../support/control-history.js';

const { history, repeat } = historyFactory({ meaningfulChange: true });
const stuck: Overrides = { committed: false, meaningfulChange: false };
const config = DEFAULT_LOOP_CONTROL_CONFIG;
const ofType = <T extends StagnationPattern['type']>(patterns: StagnationPattern[], type: T) =>
  patterns.filter((pattern) => pattern.type === type);

describe('Function: detectPatterns', () => {
  it('finds nothing in a healthy history', () => {
    expect(
      detectPatterns(runTrends(history(...repeat(12, { committed: true })), config), config),
    ).toEqual([]);
  });

  describe('repeating error', () => {
    it.each([
      [2, false],
      [3, true],
      [4, true],
    ])('the same error %d times in the window: %s', (times, found) => {
      // Prepare
      const entries = history(...repeat(times, { errorSignature: 'error TS2345: bad' }));

      // Act
      const patterns = ofType(
        detectPatterns(runTrends(entries, config), config),
        'repeating_error',
      );

      // Assess
      expect(patterns).toEqual(
        found ? [{ type: 'repeating_error', error: 'error TS2345: bad', count: times }] : [],
      );
    });

    it('does not count an occurrence that left the window', () => {
      // Prepare: the first of three occurrences is 11 iterations back
      const entries = history(
        { errorSignature: 'E' },
        ...repeat(8),
        ...repeat(2, { errorSignature: 'E' }),
      );

      // Act + Assess
      expect(ofType(detectPatterns(runTrends(entries, config), config), 'repeating_error')).toEqual(
        [],
      );
      const inside = history(...repeat(7), ...repeat(3, { errorSignature: 'E' }));
      expect(
        ofType(detectPatterns(runTrends(inside, config), config), 'repeating_error'),
      ).toHaveLength(1);
    });

    it('reports each repeating error, most frequent first', () => {
      // Prepare
      const entries = history(
        ...repeat(3, { errorSignature: 'A' }),
        ...repeat(4, { errorSignature: 'B' }),
        { errorSignature: 'C' },
      );

      // Act + Assess
      expect(ofType(detectPatterns(runTrends(entries, config), config), 'repeating_error')).toEqual(
        [
          { type: 'repeating_error', error: 'B', count: 4 },
          { type: 'repeating_error', error: 'A', count: 3 },
        ],
      );
    });
  });

  describe('mode oscillation', () => {
    it.each([
      [['implementer', 'debugger', 'implementer'], undefined],
      [['implementer', 'debugger', 'implementer', 'debugger'], 2],
      [['implementer', 'debugger', 'implementer', 'debugger', 'implementer'], 3],
    ] as const)('modes %j: switches %s', (modes, switches) => {
      // Act
      const patterns = ofType(
        detectPatterns(runTrends(history(...modes.map((mode) => ({ mode }))), config), config),
        'mode_oscillation',
      );

      // Assess
      expect(patterns).toEqual(
        switches === undefined ? [] : [{ type: 'mode_oscillation', switches }],
      );
    });
  });

  describe('test regression', () => {
    const rates = (...passed: (number | undefined)[]): Overrides[] =>
      passed.map((testsPassed) =>
        testsPassed === undefined ? {} : { testsPassed, testsTotal: 100 },
      );

    it.each([
      [91, undefined],
      [90, 10],
      [89, 11],
    ])('best 100 of 100, now %d: drop %s points', (latest, dropPercent) => {
      // Act
      const patterns = ofType(
        detectPatterns(runTrends(history(...rates(100, 95, latest)), config), config),
        'test_regression',
      );

      // Assess
      expect(patterns).toEqual(
        dropPercent === undefined
          ? []
          : [
              {
                type: 'test_regression',
                dropPercent,
                bestPassRate: 1,
                currentPassRate: latest / 100,
              },
            ],
      );
    });

    it('holds at exactly 10 points when the rates carry floating-point noise', () => {
      // Prepare: 0.7 − 0.6 = 0.09999999999999998
      const entries = history(
        { testsPassed: 7, testsTotal: 10 },
        { testsPassed: 6, testsTotal: 10 },
      );

      // Act + Assess
      expect(
        ofType(detectPatterns(runTrends(entries, config), config), 'test_regression'),
      ).toHaveLength(1);
    });

    it('takes the latest reported rate, skipping iterations without tests', () => {
      // Act
      const patterns = detectPatterns(
        runTrends(history(...rates(100, 80, undefined, undefined)), config),
        config,
      );

      // Assess
      expect(ofType(patterns, 'test_regression')).toEqual([
        { type: 'test_regression', dropPercent: 20, bestPassRate: 1, currentPassRate: 0.8 },
      ]);
    });

    it('forgets a best that left the window', () => {
      // Prepare
      const entries = history(...rates(100, ...Array.from({ length: 10 }, () => 80)));

      // Act + Assess
      expect(ofType(detectPatterns(runTrends(entries, config), config), 'test_regression')).toEqual(
        [],
      );
    });

    it('does not fire on a recovery', () => {
      expect(
        ofType(
          detectPatterns(runTrends(history(...rates(70, 100)), config), config),
          'test_regression',
        ),
      ).toEqual([]);
    });
  });

  describe('accumulating warnings', () => {
    const warnings = (...counts: number[]): Overrides[] =>
      counts.map((count) => ({ warnings: count }));

    it.each([
      [[2, 4, 6], undefined],
      [[2, 4, 7], { count: 7, rise: 5 }],
      [[2, 10, 8], undefined],
      [[2, 10, 10], { count: 10, rise: 8 }],
      [[10, 2, 7], { count: 7, rise: 5 }],
      [[2, 10, 2, 7], { count: 7, rise: 5 }],
      [[2, 8, 3, 7], undefined],
    ])('warnings %j: %o', (counts, found) => {
      // Act
      const patterns = ofType(
        detectPatterns(runTrends(history(...warnings(...counts)), config), config),
        'accumulating_warnings',
      );

      // Assess
      expect(patterns).toEqual(
        found === undefined ? [] : [{ type: 'accumulating_warnings', ...found }],
      );
    });

    it('needs a reported count', () => {
      expect(
        ofType(detectPatterns(runTrends(history({}, {}), config), config), 'accumulating_warnings'),
      ).toEqual([]);
    });
  });

  describe('no meaningful changes', () => {
    it.each([
      [2, undefined],
      [3, 3],
      [12, 12],
    ])('%d iterations in a row without one: %s', (times, iterations) => {
      // Prepare
      const entries = history(
        { meaningfulChange: true },
        ...repeat(times, { meaningfulChange: false }),
      );

      // Act
      const patterns = ofType(
        detectPatterns(runTrends(entries, config), config),
        'no_meaningful_changes',
      );

      // Assess
      expect(patterns).toEqual(
        iterations === undefined ? [] : [{ type: 'no_meaningful_changes', iterations }],
      );
    });

    it('restarts the count after a meaningful change', () => {
      // Prepare
      const entries = history(
        ...repeat(5, { meaningfulChange: false }),
        {},
        ...repeat(2, { meaningfulChange: false }),
      );

      // Act + Assess
      expect(
        ofType(detectPatterns(runTrends(entries, config), config), 'no_meaningful_changes'),
      ).toEqual([]);
    });
  });

  it('lists the patterns in the design order', () => {
    // Prepare
    const entries = history(
      { mode: 'implementer', testsPassed: 10, testsTotal: 10, warnings: 0 },
      { mode: 'debugger', errorSignature: 'E', meaningfulChange: false },
      { mode: 'implementer', errorSignature: 'E', meaningfulChange: false },
      {
        mode: 'debugger',
        errorSignature: 'E',
        meaningfulChange: false,
        testsPassed: 5,
        testsTotal: 10,
        warnings: 9,
      },
    );

    // Act
    const types = detectPatterns(runTrends(entries, config), config).map((pattern) => pattern.type);

    // Assess
    expect(types).toEqual([
      'repeating_error',
      'mode_oscillation',
      'test_regression',
      'accumulating_warnings',
      'no_meaningful_changes',
    ]);
  });

  it('follows a configured window and thresholds', () => {
    // Prepare
    const narrow = LoopControlConfigSchema.parse({
      stagnation: { windowIterations: 2, repeatingErrorCount: 2 },
    });
    const entries = history({ errorSignature: 'E' }, {}, { errorSignature: 'E' });

    // Act + Assess
    expect(ofType(detectPatterns(runTrends(entries, narrow), narrow), 'repeating_error')).toEqual(
      [],
    );
    const latest = history({}, { errorSignature: 'E' }, { errorSignature: 'E' });
    expect(ofType(detectPatterns(runTrends(latest, narrow), narrow), 'repeating_error')).toEqual([
      { type: 'repeating_error', error: 'E', count: 2 },
    ]);
  });
});

describe('Function: describePattern', () => {
  it.each([
    [{ type: 'repeating_error', error: 'E1', count: 3 }, 'the error "E1" occurred 3 times'],
    [{ type: 'mode_oscillation', switches: 2 }, 'the mode switched back and forth 2 times'],
    [
      { type: 'test_regression', dropPercent: 12.5, bestPassRate: 1, currentPassRate: 0.875 },
      'the test pass rate fell 12.5 points, from 100% to 87.5%',
    ],
    [{ type: 'accumulating_warnings', count: 9, rise: 6 }, 'warnings rose by 6 to 9'],
    [
      { type: 'no_meaningful_changes', iterations: 4 },
      '4 iterations in a row made no meaningful change',
    ],
  ] as const)('describes %o', (pattern, words) => {
    expect(describePattern(pattern)).toBe(words);
  });
});

describe('Function: stagnationLevel', () => {
  it.each([
    [0, 'none', 'none'],
    [4, 'none', 'none'],
    [5, 'warning', 'switch_mode'],
    [6, 'warning', 'switch_mode'],
    [9, 'warning', 'switch_mode'],
    [10, 'elevated', 'consult_supervisor'],
    [14, 'elevated', 'consult_supervisor'],
    [15, 'critical', 'abort'],
    [16, 'critical', 'abort'],
  ])('%d iterations without progress: %s, %s', (times, level, action) => {
    // Prepare
    const entries = history({ committed: true }, ...repeat(times, stuck));

    // Act
    const assessment = stagnationLevel(runTrends(entries, config), config);

    // Assess
    expect(assessment).toMatchObject({ level, action, count: times, threshold: 5 });
    expect(assessment.switchTo).toBe(action === 'switch_mode' ? 'debugger' : undefined);
  });

  it.each([
    ['a counted commit', { committed: true, meaningfulChange: false }],
    ['a meaningful change', { committed: false, meaningfulChange: true }],
  ])('counts %s as progress', (_name, progress) => {
    // Prepare
    const entries = history(...repeat(20, stuck), progress, ...repeat(4, stuck));

    // Act + Assess
    expect(stagnationLevel(runTrends(entries, config), config)).toMatchObject({
      level: 'none',
      count: 4,
    });
  });

  it('follows a configured threshold and multiples', () => {
    // Prepare
    const custom = LoopControlConfigSchema.parse({
      loop: { stagnationThreshold: 2 },
      stagnation: { levels: { warning: 1.5, elevated: 2, critical: 4 } },
    });
    const level = (times: number) =>
      stagnationLevel(runTrends(history(...repeat(times, stuck)), custom), custom).level;

    // Act + Assess
    expect([2, 3, 4, 7, 8].map(level)).toEqual([
      'none',
      'warning',
      'elevated',
      'elevated',
      'critical',
    ]);
  });

  it('explains the level with its numbers and the patterns found', () => {
    // Prepare
    const entries = history(...repeat(10, { ...stuck, errorSignature: 'error: boom' }));

    // Act
    const { diagnostics } = stagnationLevel(runTrends(entries, config), config);

    // Assess
    expect(diagnostics.patterns).toEqual([
      { type: 'repeating_error', error: 'error: boom', count: 10 },
      { type: 'no_meaningful_changes', iterations: 10 },
    ]);
    expect(diagnostics.summary).toBe(
      '10 iterations in a row without progress, elevated: consulting the supervisor ' +
        '(warning at 5, elevated at 10, critical at 15); patterns: the error "error: boom" ' +
        'occurred 10 times; 10 iterations in a row made no meaningful change',
    );
  });

  it('says when no pattern was found', () => {
    // Act
    const { diagnostics } = stagnationLevel(
      runTrends(history({ committed: true }, stuck), config),
      config,
    );

    // Assess
    expect(diagnostics).toEqual({
      patterns: [],
      summary:
        '1 iteration in a row without progress, below the warning level ' +
        '(warning at 5, elevated at 10, critical at 15); no stagnation pattern detected',
    });
  });
});
