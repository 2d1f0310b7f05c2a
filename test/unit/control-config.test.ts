import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LOOP_CONTROL_CONFIG,
  LoopControlConfigSchema,
} from '../../lambdas/core/schemas/control-config.js';

describe('Schema: LoopControlConfigSchema', () => {
  it('defaults every field to the design document value or the documented choice', () => {
    // Act
    const config = LoopControlConfigSchema.parse({});

    // Assess
    expect(config).toEqual({
      loop: {
        stagnationThreshold: 5,
        taskTimeoutMinutes: 30,
        maxTaskAttempts: 3,
        maxTimesBlocked: 2,
        maxTaskIterations: 8,
        enablePredictiveStagnation: true,
        enableDynamicPrompts: true,
      },
      quality: {
        tests: { minPassRate: 0.95, requireNewTestsForNewCode: true },
        warnings: { max: 20 },
        security: { blockOnCritical: true, blockOnHigh: true },
        maxReviewIterations: 1,
      },
      checkpoints: {
        enabled: true,
        autoCheckpointInterval: 10,
        maxCheckpoints: 20,
        rollbackQualityDrop: 0.2,
      },
      supervisor: {
        abortBelowPassRate: 0.5,
        pauseAboveWarnings: 20,
        abortAboveModeSwitches: 4,
        resetAtRepeatingError: 2,
        debugAfterIterationsWithoutCommit: 15,
      },
      stagnation: {
        windowIterations: 10,
        repeatingErrorCount: 3,
        modeOscillationSwitches: 2,
        testRegressionDropPercent: 10,
        warningsRise: 5,
        noMeaningfulChangeIterations: 3,
        levels: { warning: 1, elevated: 2, critical: 3 },
      },
      predictor: {
        windowIterations: 5,
        repeatedFileTouches: 3,
        stagnantTestIterations: 5,
        errorRepetitionRate: 0.5,
        recentModeSwitchIterations: 3,
        narrowFocusAbove: 0.5,
        unstickAbove: 0.7,
        weights: {
          repeatedFileTouches: 0.3,
          stagnantTestCount: 0.2,
          errorRepetition: 0.4,
          recentModeSwitch: 0.2,
        },
      },
      archive: { everyIterations: 10, maxProgressBytes: 65_536 },
    });
    expect(DEFAULT_LOOP_CONTROL_CONFIG).toEqual(config);
  });

  it('keeps the defaults of a section when only some of its fields are given', () => {
    // Act
    const config = LoopControlConfigSchema.parse({
      quality: { tests: { minPassRate: 0.8 } },
      predictor: { weights: { errorRepetition: 0.5 } },
    });

    // Assess
    expect(config.quality.tests).toEqual({ minPassRate: 0.8, requireNewTestsForNewCode: true });
    expect(config.quality.warnings.max).toBe(20);
    expect(config.predictor.weights).toEqual({
      repeatedFileTouches: 0.3,
      stagnantTestCount: 0.2,
      errorRepetition: 0.5,
      recentModeSwitch: 0.2,
    });
  });

  it.each([
    [{ warning: 2, elevated: 2, critical: 2 }, true],
    [{ warning: 1, elevated: 2, critical: 3 }, true],
    [{ warning: 2.1, elevated: 2 }, false],
    [{ elevated: 3.1 }, false],
  ])('accepts stagnation levels %o only when they rise: %s', (levels, valid) => {
    expect(LoopControlConfigSchema.safeParse({ stagnation: { levels } }).success).toBe(valid);
  });

  it.each([
    [0.7, 0.7, true],
    [0.69, 0.7, true],
    [0.71, 0.7, false],
  ])('accepts narrowFocusAbove %d with unstickAbove %d: %s', (narrow, unstick, valid) => {
    const result = LoopControlConfigSchema.safeParse({
      predictor: { narrowFocusAbove: narrow, unstickAbove: unstick },
    });
    expect(result.success).toBe(valid);
  });

  it.each([
    ['a pass rate above 1', { supervisor: { abortBelowPassRate: 1.01 } }],
    ['a negative warning limit', { supervisor: { pauseAboveWarnings: -1 } }],
    ['a zero stagnation threshold', { loop: { stagnationThreshold: 0 } }],
    ['a fractional stagnation threshold', { loop: { stagnationThreshold: 2.5 } }],
    ['a regression above 100 points', { stagnation: { testRegressionDropPercent: 101 } }],
    ['a weight above 1', { predictor: { weights: { errorRepetition: 1.1 } } }],
    ['a mode-switch window of one iteration', { predictor: { recentModeSwitchIterations: 1 } }],
  ])('rejects %s', (_name, input) => {
    expect(LoopControlConfigSchema.safeParse(input).success).toBe(false);
  });

  it('accepts the limits at their edges', () => {
    // Act
    const result = LoopControlConfigSchema.safeParse({
      supervisor: { abortBelowPassRate: 1, pauseAboveWarnings: 0, abortAboveModeSwitches: 0 },
      stagnation: { testRegressionDropPercent: 100 },
      predictor: { recentModeSwitchIterations: 2, weights: { errorRepetition: 1 } },
    });

    // Assess
    expect(result.success).toBe(true);
  });
});
