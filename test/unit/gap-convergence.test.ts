import { describe, expect, it } from 'vitest';
import {
  DEFAULT_EVALUATION_CONFIG,
  resolveEvaluationConfig,
} from '../../lambdas/core/schemas/evaluation-config.js';
import { checkConvergence } from '../../lambdas/core/gap/convergence.js';
import { ConvergenceCheckSchema } from '../../lambdas/core/schemas/analysis/checks.js';
import type { IterationMetrics } from '../../lambdas/core/schemas/analysis/metrics.js';

const metrics = (
  iteration: number,
  overrides: Partial<IterationMetrics> = {},
): IterationMetrics => ({
  iteration,
  timestamp: `2026-01-${String(10 + iteration).padStart(2, '0')}T14:30:00Z`,
  patternSetVersion: 4,
  artefactIds: ['story_1', 'story_2'],
  expensiveAvg: 4.3,
  cheapAvg: 4.1,
  gap: 0.2,
  gapDelta: 0,
  mae: 0.25,
  spearman: 0.9,
  qwk: 0.85,
  coverage: 0.85,
  patternCount: 480,
  provisionalPatterns: 5,
  patternsCommitted: 0,
  patternsRejected: 0,
  failedEvaluations: 0,
  judgeFailureRate: 0,
  judgeReliable: true,
  regressionDetected: false,
  ...overrides,
});
const config = DEFAULT_EVALUATION_CONFIG;
/** Two converging iterations after an earlier, worse one. */
const good = (last: Partial<IterationMetrics> = {}, before: Partial<IterationMetrics> = {}) => [
  metrics(1, { cheapAvg: 3.2, gap: 1.1, expensiveAvg: 4.3 }),
  metrics(2, before),
  metrics(3, last),
];

describe('Function: checkConvergence', () => {
  it('converges with a proof carrying what held and the numbers', () => {
    // Act
    const check = checkConvergence(good(), config);

    // Assess
    expect(check.converged).toBe(true);
    expect(check.failed).toEqual([]);
    expect(check.proof).toMatchObject({
      iteration: 3,
      timestamp: '2026-01-13T14:30:00Z',
      patternSetVersion: 4,
      checks: {
        minIterations: true,
        consecutiveIterations: true,
        sameArtefacts: true,
        cheapThreshold: true,
        gapThreshold: true,
        judgeReliable: true,
        patternsStable: true,
        noDivergence: true,
        noRegressions: true,
      },
      evidence: {
        iterationsChecked: [2, 3],
        cheapScores: [4.1, 4.1],
        expensiveScores: [4.3, 4.3],
        gaps: [0.2, 0.2],
        patternCounts: [480, 480],
        thresholds: {
          cheapThreshold: 4,
          gapThreshold: 0.5,
          stableIterations: 2,
          maxPatternCountChange: 10,
          minIterations: 2,
        },
      },
    });
    expect(check.proof?.evidence.agreement[0]).toEqual({
      iteration: 2,
      mae: 0.25,
      spearman: 0.9,
      qwk: 0.85,
      coverage: 0.85,
    });
    expect(ConvergenceCheckSchema.parse(check)).toEqual(check);
  });

  it('needs as many iterations as the stability window', () => {
    expect(checkConvergence([metrics(1)], config)).toEqual({
      converged: false,
      failed: ['insufficient_iterations'],
      checks: null,
      evidence: null,
      proof: null,
    });
    expect(checkConvergence([], config).failed).toEqual(['insufficient_iterations']);
  });

  it.each([
    [4.0, true],
    [3.99, false],
    [3.9999999999999996, true],
  ])('with a cheap average of %d in one iteration converges: %s (≥ 4.0)', (cheapAvg, converged) => {
    const check = checkConvergence(good({ cheapAvg }), config);
    expect(check.converged).toBe(converged);
    if (!converged) expect(check.failed).toEqual(['cheapThreshold']);
  });

  it.each([
    [0.5, true],
    [0.5000000000000001, true],
    [0.51, false],
    [-0.5, true],
    [-0.51, false],
  ])('with a gap of %d in one iteration converges: %s (|gap| ≤ 0.5)', (gap, converged) => {
    const check = checkConvergence(good({}, { gap }), config);
    expect(check.converged).toBe(converged);
    if (!converged) expect(check.failed).toEqual(['gapThreshold']);
  });

  it('fails the thresholds when a figure is missing', () => {
    expect(checkConvergence(good({ cheapAvg: null, gap: null }), config).failed).toEqual([
      'cheapThreshold',
      'gapThreshold',
    ]);
  });

  it('requires the same, non-empty artefacts in every iteration of the window', () => {
    expect(checkConvergence(good({ artefactIds: ['story_1'] }), config).failed).toEqual([
      'sameArtefacts',
    ]);
    expect(checkConvergence(good({ artefactIds: [] }, { artefactIds: [] }), config).failed).toEqual(
      ['sameArtefacts'],
    );
  });

  it.each([
    [489, true],
    [490, false],
    [471, true],
    [470, false],
  ])('from 480 to %i active patterns converges: %s (change < 10)', (patternCount, converged) => {
    expect(checkConvergence(good({ patternCount }), config).converged).toBe(converged);
  });

  it('requires consecutive iterations', () => {
    const history = [metrics(1), metrics(2), metrics(4)];
    expect(checkConvergence(history, config).failed).toEqual(['consecutiveIterations']);
  });

  it('enforces the minimum iteration number', () => {
    expect(checkConvergence([metrics(1), metrics(2)], config).converged).toBe(true);
    expect(
      checkConvergence(
        [metrics(1), metrics(2)],
        resolveEvaluationConfig({ convergence: { minIterations: 3 } }),
      ).failed,
    ).toEqual(['minIterations']);
  });

  it('refuses an iteration whose judge was unreliable or that regressed', () => {
    expect(checkConvergence(good({ judgeReliable: false }), config).failed).toEqual([
      'judgeReliable',
    ]);
    expect(checkConvergence(good({}, { regressionDetected: true }), config).failed).toEqual([
      'noRegressions',
    ]);
  });

  it('refuses while the history diverges (which needs a gap past its threshold)', () => {
    // Prepare: gaps rising 0.4 → 0.5 → 0.6
    const history = [metrics(1, { gap: 0.4 }), metrics(2, { gap: 0.5 }), metrics(3, { gap: 0.6 })];

    // Act
    const check = checkConvergence(history, config);

    // Assess
    expect(check.failed).toEqual(['gapThreshold', 'noDivergence']);
    expect(check.proof).toBeNull();
  });

  it('is not blocked by a gap that rises within its threshold', () => {
    const history = [metrics(1, { gap: 0.1 }), metrics(2, { gap: 0.2 }), metrics(3, { gap: 0.3 })];
    expect(checkConvergence(history, config).converged).toBe(true);
  });

  it('is not blocked by a gap that holds steady at a good value', () => {
    const history = [metrics(1), metrics(2), metrics(3), metrics(4)];
    expect(checkConvergence(history, config).converged).toBe(true);
  });

  it('follows a longer stability window', () => {
    const longer = resolveEvaluationConfig({ convergence: { stableIterations: 3 } });
    expect(checkConvergence(good(), longer).failed).toEqual(['cheapThreshold', 'gapThreshold']);
    expect(checkConvergence([metrics(1), metrics(2)], longer).failed).toEqual([
      'insufficient_iterations',
    ]);
  });
});
