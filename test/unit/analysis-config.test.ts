import { describe, expect, it } from 'vitest';
import {
  AnalysisConfigSchema,
  DEFAULT_ANALYSIS_CONFIG,
  resolveAnalysisConfig,
} from '../../lambdas/core/schemas/evaluation-config.js';
import { EvaluationConfigSchema } from '../../lambdas/core/schemas/evaluation.js';

describe('Function: resolveAnalysisConfig', () => {
  it("defaults every threshold to the design document's value", () => {
    // Act
    const config = resolveAnalysisConfig();

    // Assess
    expect(config).toMatchObject({
      cheapThreshold: 4,
      gapThreshold: 0.5,
      stableIterations: 2,
      maxPatternCountChange: 10,
      unreliableFailureRate: 0.2,
      validateAfterTests: 10,
      validateMinAccuracy: 0.7,
      rejectAfterTests: 5,
      rejectMaxAccuracy: 0.3,
      regressionGapIncrease: 0.2,
      regressionCheapDrop: 0.3,
      risingGapIterations: 3,
      plateauRange: 0.05,
      patternExplosionFactor: 1.5,
      calibrationHistoryMax: 50,
      coverageTarget: 0.8,
      raisedValidationAccuracy: 0.8,
      recoveryPruneMaxWeight: 0.3,
    });
    expect(DEFAULT_ANALYSIS_CONFIG).toEqual(config);
  });

  it('accepts a project EvaluationConfig as it is and overrides single values', () => {
    // Prepare
    const evaluation = EvaluationConfigSchema.parse({ cheapThreshold: 3.5 });

    // Act
    const config = resolveAnalysisConfig({ ...evaluation, dedupeJaccardThreshold: 0.9 });

    // Assess
    expect(config.cheapThreshold).toBe(3.5);
    expect(config.dedupeJaccardThreshold).toBe(0.9);
    expect(config.regressionAgreementDrop).toBe(0.2);
  });

  it('refuses values out of range', () => {
    expect(() => resolveAnalysisConfig({ dedupeJaccardThreshold: 1.5 })).toThrow();
    expect(AnalysisConfigSchema.safeParse({ weightLearningRate: -1 }).success).toBe(false);
  });
});
