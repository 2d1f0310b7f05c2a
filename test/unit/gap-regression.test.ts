import { describe, expect, it } from 'vitest';
import {
  DEFAULT_EVALUATION_CONFIG,
  resolveEvaluationConfig,
} from '../../lambdas/core/schemas/evaluation-config.js';
import { detectRegression, type RegressionFigures } from '../../lambdas/core/gap/regression.js';

const figures = (overrides: Partial<RegressionFigures> = {}): RegressionFigures => ({
  patternSetVersion: 3,
  gap: 0.4,
  cheapAvg: 3.8,
  qwk: 0.8,
  spearman: 0.9,
  judgeReliable: true,
  ...overrides,
});
const config = DEFAULT_EVALUATION_CONFIG;
const changed = (overrides: Partial<RegressionFigures>) =>
  figures({ patternSetVersion: 4, ...overrides });

describe('Function: detectRegression', () => {
  it('has nothing to compare on the first iteration', () => {
    // Act
    const check = detectRegression(undefined, figures(), config);

    // Assess
    expect(check).toMatchObject({
      regression: false,
      skipped: 'first_iteration',
      verdict: 'keep',
      previousVersion: null,
      currentVersion: 3,
    });
  });

  it('is never a regression when the pattern set did not change', () => {
    // Act
    const check = detectRegression(figures(), figures({ gap: 2, cheapAvg: 1, qwk: -1 }), config);

    // Assess
    expect(check).toMatchObject({
      regression: false,
      skipped: 'pattern_set_unchanged',
      triggers: [],
    });
  });

  it.each([
    [0.6, false],
    [0.6000001, true],
    [0.9, true],
    [0.2, false],
  ])('gap 0.4 → %d after a pattern change regresses: %s (more than +0.2)', (gap, regression) => {
    expect(detectRegression(figures(), changed({ gap }), config).regression).toBe(regression);
  });

  it('compares gaps by magnitude, so growing over-scoring regresses too', () => {
    // Act
    const check = detectRegression(figures({ gap: -0.1 }), changed({ gap: -0.5 }), config);

    // Assess
    expect(check.triggers).toEqual([
      {
        type: 'gap_increased',
        metric: 'gap',
        previous: 0.1,
        current: 0.5,
        delta: 0.4,
        threshold: 0.2,
      },
    ]);
  });

  it('computes the boundary without float noise (0.3 → 0.5 is +0.2, not more)', () => {
    expect(detectRegression(figures({ gap: 0.3 }), changed({ gap: 0.5 }), config).regression).toBe(
      false,
    );
  });

  it.each([
    [3.5, false],
    [3.4999, true],
    [3.0, true],
    [4.5, false],
  ])('cheap 3.8 → %d regresses: %s (more than −0.3)', (cheapAvg, regression) => {
    expect(detectRegression(figures(), changed({ cheapAvg }), config).regression).toBe(regression);
  });

  it.each([
    ['qwk', 0.6, false],
    ['qwk', 0.59, true],
    ['spearman', 0.7, false],
    ['spearman', 0.69, true],
  ] as const)('%s falling to %d regresses: %s (more than −0.2)', (metric, value, regression) => {
    expect(detectRegression(figures(), changed({ [metric]: value }), config).regression).toBe(
      regression,
    );
  });

  it('skips agreement figures that are undefined on either side', () => {
    expect(detectRegression(figures({ qwk: null }), changed({ qwk: 0 }), config).regression).toBe(
      false,
    );
    expect(detectRegression(figures(), changed({ spearman: null }), config).regression).toBe(false);
    expect(detectRegression(figures({ gap: null }), changed({ gap: 3 }), config).regression).toBe(
      false,
    );
  });

  it('names every trigger and rolls back to the previous version', () => {
    // Act
    const check = detectRegression(
      figures(),
      changed({ gap: 1.0, cheapAvg: 3.2, qwk: 0.1 }),
      config,
    );

    // Assess
    expect(check).toMatchObject({
      regression: true,
      skipped: null,
      patternSetChanged: true,
      verdict: 'rollback',
      previousVersion: 3,
      currentVersion: 4,
      rollbackToVersion: 3,
    });
    expect(check.triggers.map((trigger) => trigger.type)).toEqual([
      'gap_increased',
      'cheap_score_dropped',
      'agreement_dropped',
    ]);
  });

  it('assesses only the cheap drop when either judge was unreliable', () => {
    // Prepare
    const previous = figures();
    const worse = { gap: 2, qwk: -1, cheapAvg: 3.0 };

    // Act
    const unreliableNow = detectRegression(
      previous,
      changed({ ...worse, judgeReliable: false }),
      config,
    );
    const unreliableBefore = detectRegression(
      figures({ judgeReliable: false }),
      changed({ gap: 2 }),
      config,
    );

    // Assess
    expect(unreliableNow.judgeComparable).toBe(false);
    expect(unreliableNow.triggers.map((trigger) => trigger.type)).toEqual(['cheap_score_dropped']);
    expect(unreliableBefore.regression).toBe(false);
  });

  it('follows configured margins', () => {
    const strict = resolveEvaluationConfig({ regression: { gapIncrease: 0.05 } });
    expect(detectRegression(figures(), changed({ gap: 0.5 }), strict).regression).toBe(true);
  });
});
