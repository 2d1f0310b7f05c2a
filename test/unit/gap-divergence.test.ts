import { describe, expect, it } from 'vitest';
import {
  DEFAULT_EVALUATION_CONFIG,
  resolveEvaluationConfig,
} from '../../lambdas/core/schemas/evaluation-config.js';
import { detectDivergence, isPatternExplosion } from '../../lambdas/core/gap/divergence.js';
import type { IterationMetrics } from '../../lambdas/core/schemas/analysis/metrics.js';

type Entry = Parameters<typeof detectDivergence>[0][number];
const entry = (
  iteration: number,
  gap: number | null,
  overrides: Partial<IterationMetrics> = {},
): Entry => ({
  iteration,
  gap,
  cheapAvg: gap === null ? null : 4.5 - gap,
  expensiveAvg: gap === null ? null : 4.5,
  patternCount: 100,
  patternSetVersion: iteration,
  judgeReliable: true,
  ...overrides,
});
const gaps = (...values: (number | null)[]): Entry[] =>
  values.map((gap, index) => entry(index + 1, gap));
const config = DEFAULT_EVALUATION_CONFIG;

describe('Function: isPatternExplosion', () => {
  it.each([
    [100, 150, false],
    [100, 151, true],
    [0, 10, false],
    [2, 4, true],
  ])('from %i to %i active patterns: %s (more than ×1.5)', (previous, latest, explosion) => {
    expect(isPatternExplosion(previous, latest, 1.5)).toBe(explosion);
  });
});

describe('Function: detectDivergence', () => {
  it('needs data: fewer usable iterations than either window', () => {
    // Act
    const check = detectDivergence(gaps(0.1, 0.3), config);

    // Assess
    expect(check).toMatchObject({ diverging: false, reason: null, insufficientData: true });
    expect(detectDivergence([], config).insufficientData).toBe(true);
  });

  it('detects a gap rising for 3 iterations', () => {
    // Act
    const check = detectDivergence(gaps(0.9, 0.4, 0.5, 0.7), config);

    // Assess
    expect(check).toMatchObject({
      diverging: true,
      reason: 'gap_increasing',
      insufficientData: false,
      iterations: [2, 3, 4],
      lastKnownGoodVersion: 2,
      previousVersion: 3,
    });
    expect(check.gaps).toEqual([0.4, 0.5, 0.7]);
  });

  it.each([
    ['a flat step', [0.2, 0.3, 0.3]],
    ['a dip', [0.2, 0.4, 0.3]],
    ['only two rises within three but not the last three', [0.1, 0.2, 0.3, 0.1]],
  ])('does not call %s rising', (_case, values) => {
    expect(detectDivergence(gaps(...values), config).reason).not.toBe('gap_increasing');
  });

  it('judges the gap by magnitude: over-scoring more and more rises too', () => {
    expect(detectDivergence(gaps(-0.2, -0.4, -0.8), config).reason).toBe('gap_increasing');
    expect(detectDivergence(gaps(-0.8, -0.4, 0.2), config).reason).toBeNull();
  });

  it.each([
    [[0.3, 0.4, 0.5], null, 'rising to exactly the threshold'],
    [[0.3, 0.4, 0.51], 'gap_increasing', 'rising past it'],
    [[-0.3, -0.4, -0.51], 'gap_increasing', 'over-scoring more and more, past it'],
  ] as [number[], string | null, string][])('%j: %s (a gap rising %s)', (values, reason) => {
    expect(detectDivergence(gaps(...values), config).reason).toBe(reason);
  });

  it('follows a configured rise length', () => {
    const values = gaps(0.9, 0.6, 0.7);
    expect(
      detectDivergence(values, resolveEvaluationConfig({ divergence: { risingGapIterations: 2 } }))
        .reason,
    ).toBe('gap_increasing');
    expect(
      detectDivergence(values, resolveEvaluationConfig({ divergence: { risingGapIterations: 4 } }))
        .reason,
    ).toBeNull();
  });

  it.each([
    [[0.8, 0.82, 0.84], false, 'a range of 0.04 that rises is rising first'],
    [[0.8, 0.83, 0.81], true, 'a range of 0.03 above the gap threshold'],
    [[0.8, 0.85, 0.81], false, 'a range of 0.05 is not below 0.05'],
    [[0.3, 0.31, 0.3], false, 'a steady gap within the threshold is not stuck'],
    [[0.5, 0.5, 0.5], false, 'a gap exactly at the threshold is not stuck'],
  ])('%j is a plateau: %s (%s)', (values, plateau) => {
    expect(detectDivergence(gaps(...values), config).reason === 'gap_plateau').toBe(plateau);
  });

  it('prefers gap_increasing when both rules hold', () => {
    expect(detectDivergence(gaps(0.8, 0.81, 0.82), config).reason).toBe('gap_increasing');
  });

  it('uses only iterations with a gap and a reliable judge', () => {
    // Prepare: the unreliable and gap-less iterations would break the rise
    const history = [
      entry(1, 0.5),
      entry(2, 0.9, { judgeReliable: false }),
      entry(3, 0.6),
      entry(4, null),
      entry(5, 0.7),
    ];

    // Act
    const check = detectDivergence(history, config);

    // Assess
    expect(check.reason).toBe('gap_increasing');
    expect(check.iterations).toEqual([1, 3, 5]);
  });

  describe('diagnosis', () => {
    it('blames the cheap mode when the cheap average fell', () => {
      const history = [
        entry(1, 0.2),
        entry(2, 0.3),
        entry(3, 0.6, { cheapAvg: 3.8, expensiveAvg: 4.4 }),
      ];
      expect(detectDivergence(history, config).diagnosis).toBe('cheap_mode_degraded');
    });

    it('blames the judge when only the judge moved away', () => {
      const history = [
        entry(1, 0.2),
        entry(2, 0.3),
        entry(3, 0.6, { cheapAvg: 4.2, expensiveAvg: 4.8 }),
      ];
      expect(detectDivergence(history, config).diagnosis).toBe('expensive_mode_shifted');
    });

    it('reads the directions against the gap sign when the cheap mode over-scores', () => {
      // Prepare: gap −0.6; the cheap average rose (away from the judge)
      const rising = [
        entry(1, -0.2, { cheapAvg: 4.2, expensiveAvg: 4.0 }),
        entry(2, -0.3, { cheapAvg: 4.3, expensiveAvg: 4.0 }),
        entry(3, -0.6, { cheapAvg: 4.6, expensiveAvg: 4.0 }),
      ];
      const judgeFell = [
        entry(1, -0.2, { cheapAvg: 4.2, expensiveAvg: 4.0 }),
        entry(2, -0.3, { cheapAvg: 4.3, expensiveAvg: 4.0 }),
        entry(3, -0.6, { cheapAvg: 4.3, expensiveAvg: 3.7 }),
      ];

      // Act & Assess
      expect(detectDivergence(rising, config).diagnosis).toBe('cheap_mode_degraded');
      expect(detectDivergence(judgeFell, config).diagnosis).toBe('expensive_mode_shifted');
    });

    it('blames pattern explosion when the cheap mode degraded as active patterns exploded', () => {
      // Prepare
      const history = [
        entry(1, 0.2),
        entry(2, 0.3, { patternCount: 100 }),
        entry(3, 0.6, { cheapAvg: 3.9, expensiveAvg: 4.5, patternCount: 151 }),
      ];

      // Act
      const check = detectDivergence(history, config);

      // Assess
      expect(check.diagnosis).toBe('pattern_explosion');
      expect(check.patternExplosion).toBe(true);
    });

    it('does not blame an explosion of patterns for a judge that moved', () => {
      const history = [
        entry(1, 0.2),
        entry(2, 0.3, { cheapAvg: 4.2, expensiveAvg: 4.5 }),
        entry(3, 0.6, { cheapAvg: 4.2, expensiveAvg: 4.8, patternCount: 200 }),
      ];
      expect(detectDivergence(history, config).diagnosis).toBe('expensive_mode_shifted');
    });

    it('falls back to explosion, then unknown, when the averages do not explain the gap', () => {
      // Prepare: rounded averages that stayed put while the gap rose
      const flat = { cheapAvg: 4.0, expensiveAvg: 4.3 };
      const still = [entry(1, 0.6, flat), entry(2, 0.7, flat), entry(3, 0.8, flat)];
      const exploded = [
        entry(1, 0.6, flat),
        entry(2, 0.7, flat),
        entry(3, 0.8, { ...flat, patternCount: 151 }),
      ];

      // Act & Assess
      expect(detectDivergence(still, config).diagnosis).toBe('unknown');
      expect(detectDivergence(exploded, config).diagnosis).toBe('pattern_explosion');
    });

    it('is only given for a rising gap', () => {
      expect(detectDivergence(gaps(0.8, 0.82, 0.81), config).diagnosis).toBeNull();
    });
  });

  it('reports pattern explosion on its own, from the last two iterations', () => {
    // Act
    const check = detectDivergence(
      [entry(1, 0.3), entry(2, 0.3, { patternCount: 151, judgeReliable: false })],
      config,
    );

    // Assess
    expect(check.patternExplosion).toBe(true);
    expect(check.diverging).toBe(false);
  });
});
