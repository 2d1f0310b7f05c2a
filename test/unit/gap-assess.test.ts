import { describe, expect, it } from 'vitest';
import { assess, type IterationScores } from '../../lambdas/core/gap/assess.js';
import { buildIterationMetrics } from '../../lambdas/core/gap/iteration-metrics.js';
import {
  DEFAULT_EVALUATION_CONFIG,
  resolveEvaluationConfig,
} from '../../lambdas/core/schemas/evaluation-config.js';
import type { IterationMetrics } from '../../lambdas/core/schemas/analysis/metrics.js';
import { makeCheapResult, makeJudgedResult, makePattern } from '../support/evaluation.js';

const IDS = ['story_1', 'story_2', 'story_3', 'story_4', 'story_5'];
const config = DEFAULT_EVALUATION_CONFIG;

/** One iteration's scores: the judge's and the cheap mode's gestalt per artefact. */
function scores(
  iteration: number,
  judge: number[],
  cheap: number[],
  patternSetVersion = 1,
): IterationScores {
  return {
    iteration,
    timestamp: `2026-01-${String(10 + iteration).padStart(2, '0')}T12:00:00Z`,
    cheap: cheap.map((gestalt, index) =>
      makeCheapResult({ artefactId: IDS[index] as string, gestalt, patternsMatched: ['p_1'] }),
    ),
    expensive: judge.map((gestalt, index) =>
      makeJudgedResult({ artefactId: IDS[index] as string, gestalt }),
    ),
    patternSet: { version: patternSetVersion, patterns: [makePattern({ id: 'p_1' })] },
  };
}

describe('Function: assess', () => {
  it('gives the metrics and appends them to the history', () => {
    // Act
    const assessment = assess(scores(1, [4.5, 4, 3.5], [4, 4, 3]), [], config);

    // Assess
    expect(assessment.metrics).toMatchObject({
      iteration: 1,
      artefactIds: IDS.slice(0, 3),
      expensiveAvg: 4,
      cheapAvg: 11 / 3,
      gapDelta: null,
      patternCount: 1,
      regressionDetected: false,
    });
    expect(assessment.metrics.gap).toBeCloseTo(1 / 3, 12);
    expect(assessment.metrics.mae).toBeCloseTo(1 / 3, 12);
    expect(assessment.metrics.spearman).not.toBeNull();
    expect(assessment.metrics.qwk).not.toBeNull();
    expect(assessment.history).toEqual([assessment.metrics]);
    expect(assessment.regression.skipped).toBe('first_iteration');
    expect(assessment.divergence.diverging).toBe(false);
    expect(assessment.convergence.failed).toEqual(['insufficient_iterations']);
  });

  it('compares with the iteration before, also when this one is already in the history', () => {
    // Prepare
    const first = assess(scores(1, [4, 4, 4], [3, 3, 3]), [], config);
    const second = assess(scores(2, [4, 4, 4], [3.5, 3.5, 3.5]), first.history, config);

    // Act: the same iteration assessed again (a retried step)
    const retried = assess(scores(2, [4, 4, 4], [3.5, 3.5, 3.5]), second.history, config);

    // Assess
    expect(retried.metrics.gapDelta).toBeCloseTo(-0.5, 12);
    expect(retried.history.map((entry) => entry.iteration)).toEqual([1, 2]);
    expect(retried).toEqual(second);
  });

  it('converges over two good iterations on the same artefacts', () => {
    // Prepare: five artefacts (enough to measure agreement), ranked and rated alike
    const judge = [5, 4.7, 4.3, 4, 3.2];
    const first = assess(scores(1, judge, [4.8, 4.6, 4.2, 3.8, 2.9]), [], config);

    // Act
    const second = assess(scores(2, judge, [4.9, 4.6, 4.3, 3.9, 3]), first.history, config);

    // Assess
    expect(second.convergence.converged).toBe(true);
    expect(second.convergence.proof?.iteration).toBe(2);
  });

  it('detects a regression against the previous set’s figures on the same artefacts', () => {
    // Prepare: the previous set scored these artefacts close to the judge
    const baseline = buildIterationMetrics(scores(2, [4, 4, 4], [3.9, 3.9, 3.9], 1), config);
    const history: IterationMetrics[] = [
      assess(scores(1, [4, 4, 4], [3, 3, 3]), [], config).metrics,
    ];

    // Act: the new set (v2) drops the cheap scores
    const assessment = assess(
      { ...scores(2, [4, 4, 4], [3.2, 3.2, 3.2], 2), regressionBaseline: baseline },
      history,
      config,
    );

    // Assess
    expect(assessment.regression).toMatchObject({ regression: true, rollbackToVersion: 1 });
    expect(assessment.metrics.regressionDetected).toBe(true);
  });

  it('finds divergence over the history with this iteration in it', () => {
    // Prepare: the gap rises 0.6 → 0.8 → 1.0
    const strict = resolveEvaluationConfig({ divergence: { risingGapIterations: 3 } });
    const first = assess(scores(1, [4, 4, 4], [3.4, 3.4, 3.4]), [], strict);
    const second = assess(scores(2, [4, 4, 4], [3.2, 3.2, 3.2]), first.history, strict);

    // Act
    const third = assess(scores(3, [4, 4, 4], [3, 3, 3]), second.history, strict);

    // Assess
    expect(third.divergence).toMatchObject({ diverging: true, reason: 'gap_increasing' });
    expect(third.convergence.converged).toBe(false);
  });
});
