import { describe, expect, it } from 'vitest';
import * as analysis from '../../lambdas/core/evaluation/analysis/index.js';

describe('Module: analysis/index', () => {
  it('re-exports the public functions and schemas', () => {
    // Act
    const names = Object.keys(analysis);

    // Assess
    expect(names).toEqual(
      expect.arrayContaining([
        'analyseIteration',
        'appendCalibrationHistory',
        'assessComponentHealth',
        'assessJudgeReliability',
        'buildIterationLog',
        'buildIterationMetrics',
        'checkConvergence',
        'combineJudgeReruns',
        'detectDivergence',
        'detectRegression',
        'measureAgreement',
        'measureCoverage',
        'mergeNearDuplicates',
        'pairResults',
        'planRecovery',
        'prunePatterns',
        'quadraticWeightedKappa',
        'recalibrateWeights',
        'recordPatternOutcomes',
        'applyPatternLifecycle',
        'resolveAnalysisConfig',
        'spearman',
        'IterationLogSchema',
        'IterationMetricsSchema',
        'RecoveryActionSchema',
        'RECOVERY_TABLE',
      ]),
    );
  });
});
