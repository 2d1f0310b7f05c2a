import { describe, expect, it } from 'vitest';
import {
  DEFAULT_EVALUATION_CONFIG,
  resolveEvaluationConfig,
} from '../../lambdas/core/schemas/evaluation-config.js';
import { checkConvergence } from '../../lambdas/core/gap/convergence.js';
import {
  ConvergenceCheckSchema,
  ConvergenceProofSchema,
} from '../../lambdas/core/schemas/analysis/checks.js';
import type { IterationMetrics } from '../../lambdas/core/schemas/analysis/metrics.js';

const metrics = (
  iteration: number,
  overrides: Partial<IterationMetrics> = {},
): IterationMetrics => ({
  iteration,
  timestamp: `2026-01-${String(10 + iteration).padStart(2, '0')}T14:30:00Z`,
  patternSetVersion: 4,
  artefactIds: ['story_1', 'story_2', 'story_3', 'story_4', 'story_5'],
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
        minSpearman: true,
        minQwk: true,
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
          minSpearman: 0.6,
          minQwk: 0.6,
          minAgreementArtefacts: 5,
        },
      },
    });
    expect(check.proof?.reasons).toMatchObject({
      cheapThreshold: { rule: 'cheap ≥ 4.0', reason: 'cheap ≥ 4.0 (4.10)' },
      gapThreshold: { rule: '|gap| ≤ 0.5', reason: '|gap| ≤ 0.5 (0.20)' },
      minSpearman: { rule: 'ρ ≥ 0.6', reason: 'ρ ≥ 0.6 (0.90)' },
      minQwk: { rule: 'QWK ≥ 0.6', reason: 'QWK ≥ 0.6 (0.85)' },
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
      reasons: {},
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
    const fewer = ['story_1', 'story_2', 'story_3', 'story_4', 'story_6'];
    expect(checkConvergence(good({ artefactIds: fewer }), config).failed).toEqual([
      'sameArtefacts',
    ]);
    expect(checkConvergence(good({ artefactIds: [] }, { artefactIds: [] }), config).failed).toEqual(
      ['sameArtefacts', 'minSpearman', 'minQwk'],
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

describe('Function: checkConvergence — agreement (Spearman and QWK)', () => {
  it.each([
    ['spearman', 0.6, true],
    ['spearman', 0.59, false],
    ['qwk', 0.6, true],
    ['qwk', 0.59, false],
  ] as const)('with %s %d in one iteration converges: %s (≥ 0.6)', (figure, value, converged) => {
    const check = checkConvergence(good({ [figure]: value }), config);
    expect(check.converged).toBe(converged);
    if (!converged)
      expect(check.failed).toEqual([figure === 'spearman' ? 'minSpearman' : 'minQwk']);
  });

  it('fails on a closed gap whose ranking agreement stayed low, with the numbers', () => {
    // Act
    const check = checkConvergence(good({ spearman: 0.3, qwk: 0 }, { spearman: 0.45 }), config);

    // Assess
    expect(check.converged).toBe(false);
    expect(check.failed).toEqual(['minSpearman', 'minQwk']);
    expect(check.checks).toMatchObject({ cheapThreshold: true, gapThreshold: true });
    expect(check.reasons.minSpearman).toEqual({ rule: 'ρ ≥ 0.6', reason: 'ρ 0.30 < 0.6' });
    expect(check.reasons.minQwk).toEqual({ rule: 'QWK ≥ 0.6', reason: 'QWK 0.00 < 0.6' });
    expect(check.proof).toBeNull();
  });

  it('requires agreement in every iteration of the window, naming the one that failed', () => {
    const check = checkConvergence(good({}, { spearman: 0.4 }), config);
    expect(check.failed).toEqual(['minSpearman']);
    expect(check.reasons.minSpearman?.reason).toBe('ρ 0.40 < 0.6 at iteration 2');
  });

  it('says when there are too few artefacts to measure agreement, instead of holding', () => {
    // Prepare: ρ and QWK of 1 on three artefacts prove nothing
    const three = ['story_1', 'story_2', 'story_3'];
    const history = good({ artefactIds: three, spearman: 1, qwk: 1 }, { artefactIds: three });

    // Act
    const check = checkConvergence(history, config);

    // Assess
    expect(check.failed).toEqual(['minSpearman', 'minQwk']);
    expect(check.reasons.minSpearman?.reason).toBe('too few artefacts to measure agreement: 3 < 5');
    expect(check.reasons.minQwk?.reason).toBe('too few artefacts to measure agreement: 3 < 5');
  });

  it('says when a figure could not be measured, beside a low one elsewhere in the window', () => {
    const check = checkConvergence(good({ spearman: null, qwk: null }, { spearman: 0.3 }), config);
    expect(check.failed).toEqual(['minSpearman', 'minQwk']);
    expect(check.reasons.minSpearman?.reason).toBe(
      'ρ 0.30 < 0.6 at iteration 2, ρ not measurable (one mode scored every artefact alike)',
    );
    expect(check.reasons.minQwk?.reason).toBe(
      'QWK not measurable (both modes rated every artefact alike)',
    );
  });

  it('follows the configured thresholds and artefact minimum', () => {
    // Prepare
    const three = ['story_1', 'story_2', 'story_3'];
    const history = good({ artefactIds: three, spearman: 0.35 }, { artefactIds: three });
    const relaxed = resolveEvaluationConfig({
      convergence: { minSpearman: 0.3, minAgreementArtefacts: 3 },
    });

    // Act & Assess
    expect(checkConvergence(history, relaxed).converged).toBe(true);
    expect(checkConvergence(history, relaxed).proof?.evidence.thresholds).toMatchObject({
      minSpearman: 0.3,
      minQwk: 0.6,
      minAgreementArtefacts: 3,
    });
    const stricter = resolveEvaluationConfig({ convergence: { minQwk: 0.9 } });
    expect(checkConvergence(good(), stricter).reasons.minQwk?.reason).toBe('QWK 0.85 < 0.9');
  });
});

describe('Stored convergence checks and proofs', () => {
  /** A proof as stored before agreement was required and before checks had reasons. */
  const oldProof = {
    iteration: 5,
    timestamp: '2026-01-15T14:30:00Z',
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
      iterationsChecked: [4, 5],
      artefactIds: [['story_1'], ['story_1']],
      cheapScores: [4.1, 4.2],
      expensiveScores: [4.3, 4.3],
      gaps: [0.2, 0.1],
      patternCounts: [3, 3],
      patternSetVersions: [4, 4],
      agreement: [],
      thresholds: {
        cheapThreshold: 4,
        gapThreshold: 0.5,
        stableIterations: 2,
        maxPatternCountChange: 10,
        minIterations: 2,
      },
    },
  };

  it('still parse, with no agreement checks and no reasons', () => {
    // Act
    const proof = ConvergenceProofSchema.parse(oldProof);
    const check = ConvergenceCheckSchema.parse({
      converged: false,
      failed: ['gapThreshold'],
      checks: { ...oldProof.checks, gapThreshold: false },
      evidence: oldProof.evidence,
      proof: null,
    });

    // Assess
    expect(proof.checks).not.toHaveProperty('minSpearman');
    expect(proof.reasons).toEqual({});
    expect(check.reasons).toEqual({});
    expect(check.evidence?.thresholds).not.toHaveProperty('minSpearman');
  });

  it('parse as they are written now', () => {
    const check = checkConvergence(good(), config);
    expect(ConvergenceProofSchema.parse(check.proof)).toEqual(check.proof);
  });
});
