import { describe, expect, it } from 'vitest';
import { checkConvergence } from '../../lambdas/core/gap/convergence.js';
import { describeConvergence } from '../../lambdas/core/gap/convergence-words.js';
import { DEFAULT_EVALUATION_CONFIG } from '../../lambdas/core/schemas/evaluation-config.js';
import { ConvergenceCheckSchema } from '../../lambdas/core/schemas/analysis/checks.js';
import type { IterationMetrics } from '../../lambdas/core/schemas/analysis/metrics.js';

const config = DEFAULT_EVALUATION_CONFIG;

const metrics = (
  iteration: number,
  overrides: Partial<IterationMetrics> = {},
): IterationMetrics => ({
  iteration,
  timestamp: `2026-01-${String(10 + iteration).padStart(2, '0')}T14:30:00Z`,
  patternSetVersion: 2,
  artefactIds: ['s1', 's2', 's3', 's4', 's5', 's6', 's7'],
  expensiveAvg: 4.6,
  cheapAvg: 4.31,
  gap: 0.22,
  gapDelta: 0,
  mae: 0.3,
  spearman: 0.81,
  qwk: 0.72,
  coverage: 1,
  patternCount: 3,
  provisionalPatterns: 1,
  patternsCommitted: 0,
  patternsRejected: 0,
  failedEvaluations: 0,
  judgeFailureRate: 0,
  judgeReliable: true,
  regressionDetected: false,
  ...overrides,
});

describe('Function: describeConvergence', () => {
  it('states a convergence by its rules, each with the weakest figure of the window', () => {
    // Prepare
    const check = checkConvergence(
      [metrics(3, { cheapAvg: 4.4, spearman: 0.9 }), metrics(4)],
      config,
    );

    // Act & Assess
    expect(check.converged).toBe(true);
    expect(describeConvergence(check, 2)).toBe(
      'cheap ≥ 4.0 (4.31), |gap| ≤ 0.5 (0.22), ρ ≥ 0.6 (0.81), QWK ≥ 0.6 (0.72) over 2 iterations',
    );
  });

  it('names the failed rules with their numbers, then the headline rules that held', () => {
    const check = checkConvergence(
      [metrics(5, { spearman: 0.7 }), metrics(6, { spearman: 0.3, qwk: 0 })],
      config,
    );
    expect(describeConvergence(check, 2)).toBe(
      'ρ 0.30 < 0.6, QWK 0.00 < 0.6 (cheap ≥ 4.0 held, |gap| ≤ 0.5 held)',
    );
  });

  it('says too few artefacts once, though both agreement rules fail on it', () => {
    const three = { artefactIds: ['s1', 's2', 's3'] };
    const check = checkConvergence([metrics(1, three), metrics(2, three)], config);
    expect(describeConvergence(check, 2)).toBe(
      'too few artefacts to measure agreement: 3 < 5 (cheap ≥ 4.0 held, |gap| ≤ 0.5 held)',
    );
  });

  it('names the other conditions that failed, and leaves out held ones when none held', () => {
    const check = checkConvergence(
      [
        metrics(1, { cheapAvg: 3, gap: 1.6, spearman: 0.1, qwk: 0.2 }),
        metrics(3, { cheapAvg: 3.3, gap: 0.9, judgeReliable: false }),
      ],
      config,
    );
    expect(describeConvergence(check, 2)).toBe(
      [
        'iterations 1, 3 do not follow each other',
        'cheap 3.00 < 4.0 at iteration 1',
        '|gap| 1.60 > 0.5 at iteration 1',
        'ρ 0.10 < 0.6 at iteration 1',
        'QWK 0.20 < 0.6 at iteration 1',
        'the judge unreliable',
      ].join(', '),
    );
  });

  it('says when there are too few iterations for the window', () => {
    expect(describeConvergence(checkConvergence([metrics(1)], config), 2)).toBe(
      'fewer than 2 evaluated iterations to compare',
    );
  });

  it('names the failed checks of a check stored before reasons were kept', () => {
    const stored = ConvergenceCheckSchema.parse({
      converged: false,
      failed: ['cheapThreshold'],
      checks: {
        minIterations: true,
        consecutiveIterations: true,
        sameArtefacts: true,
        cheapThreshold: false,
        gapThreshold: true,
        judgeReliable: true,
        patternsStable: true,
        noDivergence: true,
        noRegressions: true,
      },
      evidence: null,
      proof: null,
    });
    expect(describeConvergence(stored, 2)).toBe('cheapThreshold');
  });
});
