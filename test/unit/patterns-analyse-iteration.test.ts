import { describe, expect, it } from 'vitest';
import {
  analyseIteration,
  type IterationAnalysis,
  type IterationAnalysisInput,
} from '../../lambdas/core/patterns/analyse-iteration.js';
import { DEFAULT_EVALUATION_CONFIG } from '../../lambdas/core/schemas/evaluation-config.js';
import type { IterationMetrics } from '../../lambdas/core/schemas/analysis/metrics.js';
import type {
  CheapModeResult,
  ExpensiveModeResult,
} from '../../lambdas/core/schemas/evaluation.js';
import {
  GOOD_STORY_REASONS,
  makeCheapResult,
  makeFailedResult,
  makeJudgedResult,
  makePattern,
} from '../support/evaluation.js';

const IDS = ['story_1', 'story_2', 'story_3', 'story_4', 'story_5'];
const cheapScores = (scores: number[], matched: string[] = ['p_user']): CheapModeResult[] =>
  scores.map((gestalt, index) =>
    makeCheapResult({
      artefactId: IDS[index] as string,
      gestalt,
      rawScore: ((gestalt - 1) * 5) / 4,
      reasons: GOOD_STORY_REASONS,
      patternsMatched: matched,
    }),
  );
const judgeScores = (scores: (number | null)[]): ExpensiveModeResult[] =>
  scores.map((gestalt, index) =>
    gestalt === null
      ? makeFailedResult({ artefactId: IDS[index] as string })
      : makeJudgedResult({ artefactId: IDS[index] as string, gestalt }),
  );
const basePatterns = [
  makePattern({
    id: 'p_user',
    keywords: ['user can'],
    timesTested: 6,
    timesCorrect: 3,
    lastFiredIteration: 0,
  }),
  makePattern({
    id: 'p_trial',
    status: 'provisional',
    keywords: ['frustrated when'],
    timesTested: 9,
    timesCorrect: 8,
  }),
];
const config = DEFAULT_EVALUATION_CONFIG;

function run(
  iteration: number,
  cheap: CheapModeResult[],
  expensive: ExpensiveModeResult[],
  history: IterationMetrics[],
  overrides: Partial<IterationAnalysisInput> = {},
): IterationAnalysis {
  return analyseIteration(
    {
      iteration,
      timestamp: `2026-01-${String(10 + iteration).padStart(2, '0')}T12:00:00Z`,
      cheap,
      expensive,
      patternSet: { version: iteration, patterns: basePatterns },
      history,
      ...overrides,
    },
    config,
  );
}

describe('Function: analyseIteration', () => {
  it('learns from the judge, records the iteration and logs everything it did', () => {
    // Prepare: p_trial fires on two stories the judge rates 4+, reaching 11 tests at 10/11
    const cheap = cheapScores([4.2, 4.0, 3.8, 4.1], ['p_user', 'p_trial']).map((result, index) =>
      index < 2 ? result : { ...result, patternsMatched: ['p_user'] },
    );

    // Act
    const analysis = run(1, cheap, judgeScores([4.5, 4.2, 4.0, 4.4]), []);

    // Assess
    const trial = analysis.patterns.find((p) => p.id === 'p_trial');
    expect(trial).toMatchObject({
      status: 'active',
      timesTested: 11,
      timesCorrect: 10,
      weight: 1.4091,
    });
    expect(analysis.patterns.find((p) => p.id === 'p_user')).toMatchObject({
      timesTested: 10,
      timesCorrect: 7,
      weight: 1.2,
      lastFiredIteration: 1,
    });
    expect(analysis.patternEvents).toEqual([
      { type: 'committed_pattern', patternId: 'p_trial', accuracy: 10 / 11 },
      { type: 'reweighted_pattern', patternId: 'p_user', from: 1, to: 1.2 },
      // validated this iteration, so active when weights are recalibrated
      { type: 'reweighted_pattern', patternId: 'p_trial', from: 1, to: 1.4091 },
    ]);
    expect(analysis.metrics).toMatchObject({
      iteration: 1,
      patternsCommitted: 1,
      patternCount: 1,
      provisionalPatterns: 1,
    });
    expect(analysis.metrics.gap).toBeCloseTo(0.25, 12);
    expect(analysis.history).toEqual([analysis.metrics]);
    expect(analysis.log.actionsTaken).toEqual(analysis.patternEvents);
    expect(analysis.convergence.failed).toEqual(['insufficient_iterations']);
  });

  it('converges once the cheap mode holds ≥ 4.0 within 0.5 of the judge, ranking as it does, for two iterations', () => {
    // Prepare: five stories (enough to measure agreement), ranked alike by both modes
    const judge = [5.0, 4.7, 4.3, 4.0, 3.2];
    const first = run(1, cheapScores([3.8, 3.4, 3.0, 2.8, 2.0]), judgeScores(judge), []);
    const second = run(
      2,
      cheapScores([4.8, 4.6, 4.2, 3.8, 2.9]),
      judgeScores(judge),
      first.history,
      {
        patternSet: { version: 1, patterns: first.patterns },
      },
    );

    // Act
    const third = run(
      3,
      cheapScores([4.9, 4.6, 4.3, 3.9, 3.0]),
      judgeScores(judge),
      second.history,
      {
        patternSet: { version: 1, patterns: second.patterns },
      },
    );

    // Assess
    expect(second.convergence.converged).toBe(false);
    // Iteration 1 ranks alike but a rating lower: kappa counts the offset, rho does not.
    expect(second.convergence.failed).toEqual(['cheapThreshold', 'gapThreshold', 'minQwk']);
    expect(third.convergence.converged).toBe(true);
    expect(third.convergence.checks).toMatchObject({ minSpearman: true, minQwk: true });
    expect(third.convergence.proof?.evidence.iterationsChecked).toEqual([2, 3]);
    expect(third.log.convergenceCheck.converged).toBe(true);
    expect(third.recovery).toEqual([]);
  });

  it('rolls back a pattern change that lowered the cheap score', () => {
    // Prepare
    const first = run(1, cheapScores([4.2, 4.0, 3.8, 4.0]), judgeScores([4.5, 4.2, 4.0, 4.4]), []);

    // Act: version 2 scores the same stories 0.5 lower
    const second = run(
      2,
      cheapScores([3.7, 3.5, 3.3, 3.5]),
      judgeScores([4.5, 4.2, 4.0, 4.4]),
      first.history,
    );

    // Assess
    expect(second.regression).toMatchObject({
      regression: true,
      verdict: 'rollback',
      rollbackToVersion: 1,
    });
    expect(second.metrics.regressionDetected).toBe(true);
    expect(second.recovery).toMatchObject([
      { type: 'rollback_patterns', toVersion: 1, trigger: 'regression' },
    ]);
    expect(second.log.actionsTaken.at(-1)).toMatchObject({ type: 'rollback_patterns' });
  });

  it('does not learn from an unreliable judge, and asks for the failures to be re-run', () => {
    // Act: 2 of 4 evaluations failed
    const analysis = run(
      1,
      cheapScores([4.2, 4.0, 3.8, 4.1]),
      judgeScores([4.5, null, null, 4.4]),
      [],
    );

    // Assess
    expect(analysis.metrics).toMatchObject({
      judgeReliable: false,
      failedEvaluations: 2,
      artefactIds: ['story_1', 'story_4'],
    });
    expect(analysis.patterns.find((p) => p.id === 'p_user')).toMatchObject({
      timesTested: 6,
      timesFired: 4,
    });
    expect(analysis.health.expensive_evaluator).toMatchObject({
      healthy: false,
      flags: ['judge_unreliable'],
    });
    expect(analysis.recovery).toMatchObject([
      {
        type: 'rerun_judge',
        runs: 3,
        artefactIds: ['story_2', 'story_3'],
        trigger: 'judge_unreliable',
      },
    ]);
  });

  it('answers a rising gap with the recovery table and keeps it from converging', () => {
    // Prepare: the gap grows 0.2 → 0.4 → 0.6 under versions 1, 2, 3
    const judge = judgeScores([4.5, 4.5, 4.5, 4.5]);
    const first = run(1, cheapScores([4.3, 4.3, 4.3, 4.3]), judge, []);
    const second = run(2, cheapScores([4.1, 4.1, 4.1, 4.1]), judge, first.history);

    // Act
    const third = run(3, cheapScores([3.9, 3.9, 3.9, 3.9]), judge, second.history);

    // Assess
    expect(third.divergence).toMatchObject({
      diverging: true,
      reason: 'gap_increasing',
      diagnosis: 'cheap_mode_degraded',
      lastKnownGoodVersion: 1,
    });
    expect(third.recovery.map((action) => [action.type, action.trigger])).toEqual([
      ['rollback_patterns', 'gap_increasing'],
      ['reduce_learning_rate', 'gap_increasing'],
      ['increase_validation_threshold', 'gap_increasing'],
      ['recalibrate_weights', 'cheap_mode_degraded'],
    ]);
    // The settings and the recalibration are carried out here; the rollback is the step's.
    expect(third.recovered.applied).toEqual([
      'reduce_learning_rate',
      'increase_validation_threshold',
      'recalibrate_weights',
    ]);
    expect(third.recovered.state).toMatchObject({
      learningRateFactor: 0.5,
      validateMinAccuracy: 0.8,
    });
    expect(third.health.cheap_evaluator.flags).toEqual(['all_same_score']);
    expect(third.convergence.converged).toBe(false);
  });

  it('compares a retried iteration with the one before it, and records it once', () => {
    // Prepare: iteration 2 ran once already (its metrics are in the history)
    const first = run(1, cheapScores([4.2, 4.0, 3.8, 4.0]), judgeScores([4.5, 4.2, 4.0, 4.4]), []);
    const attempt = run(
      2,
      cheapScores([4.2, 4.0, 3.8, 4.0]),
      judgeScores([4.5, 4.2, 4.0, 4.4]),
      first.history,
    );

    // Act
    const retry = run(
      2,
      cheapScores([4.2, 4.0, 3.8, 4.0]),
      judgeScores([4.5, 4.2, 4.0, 4.4]),
      attempt.history,
    );

    // Assess
    expect(retry.regression).toMatchObject({ previousVersion: 1, currentVersion: 2 });
    expect(retry.metrics.gapDelta).toBeCloseTo(0, 12);
    expect(retry.history.map((entry) => entry.iteration)).toEqual([1, 2]);
  });
});
