import { describe, expect, it } from 'vitest';
import {
  DEFAULT_EVALUATION_CONFIG,
  resolveEvaluationConfig,
} from '../../lambdas/core/schemas/evaluation-config.js';
import {
  planRecovery,
  RECOVERY_TABLE,
  recoveryTriggers,
  type RecoveryContext,
} from '../../lambdas/core/patterns/recovery/plan.js';
import { effectiveConfig, recover } from '../../lambdas/core/patterns/recovery/recover.js';
import { RecoveryActionSchema } from '../../lambdas/core/schemas/analysis/actions.js';
import { RunEvaluationStateSchema } from '../../lambdas/core/schemas/evaluation-records.js';
import type {
  DivergenceCheck,
  JudgeReliability,
  RegressionCheck,
} from '../../lambdas/core/schemas/analysis/checks.js';
import { makePattern } from '../support/evaluation.js';

const pattern = (overrides: Parameters<typeof makePattern>[0]) =>
  makePattern({ type: 'bad', timesFired: 1, ...overrides });
const calm: DivergenceCheck = {
  diverging: false,
  reason: null,
  insufficientData: false,
  diagnosis: null,
  patternExplosion: false,
  iterations: [5, 6, 7],
  gaps: [0.4, 0.45, 0.5],
  lastKnownGoodVersion: null,
  previousVersion: 6,
};
const rising: DivergenceCheck = {
  ...calm,
  diverging: true,
  reason: 'gap_increasing',
  diagnosis: 'unknown',
  lastKnownGoodVersion: 5,
};
const plateau: DivergenceCheck = { ...calm, diverging: true, reason: 'gap_plateau' };
const context = (overrides: Partial<RecoveryContext> = {}): RecoveryContext => ({
  iteration: 7,
  currentVersion: 7,
  patterns: [],
  artefactIds: ['a', 'b'],
  divergence: calm,
  ...overrides,
});
const config = DEFAULT_EVALUATION_CONFIG;
const types = (actions: { type: string }[]) => actions.map((action) => action.type);

describe('Constant: RECOVERY_TABLE', () => {
  it("holds the document's rows in its words", () => {
    expect(RECOVERY_TABLE.gap_increasing).toEqual([
      { documentAction: 'rollback_patterns', description: 'Revert to last known good pattern set' },
      { documentAction: 'reduce_learning_rate', description: 'Make smaller pattern changes' },
      {
        documentAction: 'increase_validation_threshold',
        description: 'Require 80% accuracy to commit',
      },
    ]);
    expect(RECOVERY_TABLE.gap_plateau.map((row) => row.documentAction)).toEqual([
      'increase_proposal_diversity',
      'prune_low_weight_patterns',
      'reset_provisional',
    ]);
    expect(RECOVERY_TABLE.cheap_mode_degraded.map((row) => row.documentAction)).toEqual([
      'rollback_patterns',
      'recalibrate_weights',
    ]);
    expect(RECOVERY_TABLE.pattern_explosion.map((row) => row.documentAction)).toEqual([
      'deduplicate_patterns',
      'prune_by_coverage',
    ]);
  });
});

describe('Function: recoveryTriggers', () => {
  it('lists regression, the divergence reason, its diagnosis, explosion, then judge', () => {
    // Prepare
    const regression = { verdict: 'rollback' } as RegressionCheck;
    const reliability = { unreliable: true } as JudgeReliability;
    const divergence = {
      ...rising,
      diagnosis: 'cheap_mode_degraded',
      patternExplosion: true,
    } as const;

    // Act
    const triggers = recoveryTriggers({ divergence, regression, reliability });

    // Assess
    expect(triggers).toEqual([
      'regression',
      'gap_increasing',
      'cheap_mode_degraded',
      'pattern_explosion',
      'judge_unreliable',
    ]);
  });

  it('adds nothing for an unknown diagnosis and lists explosion once', () => {
    expect(recoveryTriggers({ divergence: rising })).toEqual(['gap_increasing']);
    expect(
      recoveryTriggers({
        divergence: { ...rising, diagnosis: 'pattern_explosion', patternExplosion: true },
      }),
    ).toEqual(['gap_increasing', 'pattern_explosion']);
  });
});

describe('Function: planRecovery', () => {
  it('plans nothing when all is well', () => {
    expect(planRecovery(context(), config)).toEqual([]);
  });

  it('answers a rising gap with rollback to the last good version, smaller steps, stricter commits', () => {
    // Act
    const actions = planRecovery(context({ divergence: rising }), config);

    // Assess
    expect(actions).toEqual([
      {
        type: 'rollback_patterns',
        toVersion: 5,
        trigger: 'gap_increasing',
        documentAction: 'rollback_patterns',
        description: 'Revert to last known good pattern set',
      },
      {
        type: 'reduce_learning_rate',
        factor: 0.5,
        trigger: 'gap_increasing',
        documentAction: 'reduce_learning_rate',
        description: 'Make smaller pattern changes',
      },
      {
        type: 'increase_validation_threshold',
        minAccuracy: 0.8,
        trigger: 'gap_increasing',
        documentAction: 'increase_validation_threshold',
        description: 'Require 80% accuracy to commit',
      },
    ]);
    actions.forEach((action) => expect(RecoveryActionSchema.parse(action)).toEqual(action));
  });

  it('leaves out a rollback to the version already in use', () => {
    const actions = planRecovery(
      context({ divergence: { ...rising, lastKnownGoodVersion: 7 } }),
      config,
    );
    expect(types(actions)).toEqual(['reduce_learning_rate', 'increase_validation_threshold']);
  });

  it('answers a plateau with diversity, low-weight pruning and a provisional reset', () => {
    // Prepare
    const patterns = [
      pattern({ id: 'p_light', weight: 0.29 }),
      pattern({ id: 'p_edge', weight: 0.3 }),
      pattern({ id: 'p_dead', weight: 0.1, status: 'pruned' }),
      pattern({ id: 'p_new', status: 'provisional' }),
    ];

    // Act
    const actions = planRecovery(context({ divergence: plateau, patterns }), config);

    // Assess
    expect(actions).toMatchObject([
      { type: 'increase_proposal_diversity', trigger: 'gap_plateau' },
      {
        type: 'prune_patterns',
        criterion: 'low_weight',
        ids: ['p_light'],
        documentAction: 'prune_low_weight_patterns',
      },
      { type: 'reset_provisional', ids: ['p_new'] },
    ]);
  });

  it('leaves out prunes and resets with nothing to act on', () => {
    expect(types(planRecovery(context({ divergence: plateau }), config))).toEqual([
      'increase_proposal_diversity',
    ]);
  });

  it('rolls a degraded cheap mode back to the previous version and recalibrates', () => {
    // Prepare: no last-good version, so the degradation's rollback is the one planned
    const divergence = {
      ...rising,
      lastKnownGoodVersion: null,
      diagnosis: 'cheap_mode_degraded',
    } as const;

    // Act
    const actions = planRecovery(context({ divergence }), config);

    // Assess
    expect(actions).toMatchObject([
      { type: 'reduce_learning_rate' },
      { type: 'increase_validation_threshold' },
      {
        type: 'rollback_patterns',
        toVersion: 6,
        trigger: 'cheap_mode_degraded',
        description: 'Revert pattern changes',
      },
      { type: 'recalibrate_weights', trigger: 'cheap_mode_degraded' },
    ]);
  });

  it('plans one rollback: the first row that asks for it wins', () => {
    const divergence = { ...rising, diagnosis: 'cheap_mode_degraded' } as const;
    const rollbacks = planRecovery(context({ divergence }), config).filter(
      (a) => a.type === 'rollback_patterns',
    );
    expect(rollbacks).toMatchObject([{ toVersion: 5, trigger: 'gap_increasing' }]);
  });

  it('answers pattern explosion with the merge plan and never-fired pruning', () => {
    // Prepare
    const terms = ['vague', 'unclear', 'fuzzy', 'loose', 'blurry'];
    const patterns = [
      pattern({ id: 'p_a', keywords: terms, timesTested: 3 }),
      pattern({ id: 'p_b', keywords: terms }),
      pattern({ id: 'p_silent', timesFired: 0, learnedIteration: 6 }),
      pattern({ id: 'p_fresh', timesFired: 0, learnedIteration: 7 }),
    ];

    // Act
    const actions = planRecovery(
      context({ divergence: { ...calm, patternExplosion: true }, patterns }),
      config,
    );

    // Assess
    expect(actions).toMatchObject([
      {
        type: 'deduplicate_patterns',
        threshold: 0.8,
        merges: [{ keepId: 'p_a', mergeIds: ['p_b'] }],
      },
      {
        type: 'prune_patterns',
        criterion: 'never_fired',
        ids: ['p_silent'],
        documentAction: 'prune_by_coverage',
      },
    ]);
  });

  it('keeps both prunes when a plateau and an explosion ask for different ones', () => {
    const patterns = [
      pattern({ id: 'p_light', weight: 0.2 }),
      pattern({ id: 'p_silent', timesFired: 0 }),
    ];
    const actions = planRecovery(
      context({ divergence: { ...plateau, patternExplosion: true }, patterns }),
      config,
    );
    expect(
      actions
        .filter((a) => a.type === 'prune_patterns')
        .map((a) => a.type === 'prune_patterns' && a.criterion),
    ).toEqual(['low_weight', 'never_fired']);
  });

  it('re-runs the judge on every artefact when it shifted, on the failed ones when unreliable', () => {
    // Prepare
    const shifted = {
      ...rising,
      lastKnownGoodVersion: null,
      diagnosis: 'expensive_mode_shifted',
    } as const;
    const reliability = { unreliable: true, failedArtefactIds: ['b'] } as JudgeReliability;

    // Act
    const onShift = planRecovery(context({ divergence: shifted, reliability }), config);
    const onFailures = planRecovery(
      context({ reliability }),
      resolveEvaluationConfig({ judge: { reruns: 5 } }),
    );

    // Assess
    expect(onShift.filter((a) => a.type === 'rerun_judge')).toMatchObject([
      { runs: 3, artefactIds: ['a', 'b'], trigger: 'expensive_mode_shifted' },
    ]);
    expect(onFailures).toMatchObject([
      { type: 'rerun_judge', runs: 5, artefactIds: ['b'], trigger: 'judge_unreliable' },
    ]);
  });

  it('turns a regression verdict into a rollback to the previous version', () => {
    // Prepare
    const regression = { verdict: 'rollback', rollbackToVersion: 6 } as RegressionCheck;

    // Act
    const actions = planRecovery(context({ regression }), config);

    // Assess
    expect(actions).toEqual([
      {
        type: 'rollback_patterns',
        toVersion: 6,
        trigger: 'regression',
        documentAction: 'revert_pattern_change',
        description: 'Automatic rollback + re-evaluation',
      },
    ]);
  });
});

describe('Function: recover', () => {
  const state = RunEvaluationStateSchema.parse({});

  it('plans the actions and carries out those that change patterns and settings', () => {
    // Prepare
    const patterns = [
      pattern({ id: 'p_light', weight: 0.29 }),
      pattern({ id: 'p_new', status: 'provisional', timesTested: 4, timesCorrect: 1 }),
    ];

    // Act
    const recovery = recover(context({ divergence: plateau, patterns }), state, config);

    // Assess
    expect(types(recovery.actions)).toEqual([
      'increase_proposal_diversity',
      'prune_patterns',
      'reset_provisional',
    ]);
    expect(recovery.applied).toEqual(types(recovery.actions));
    expect(recovery.patterns).toMatchObject([
      { id: 'p_light', status: 'pruned' },
      { id: 'p_new', status: 'provisional', timesTested: 0, timesCorrect: 0 },
    ]);
    expect(recovery.events).toEqual([
      { type: 'pruned_pattern', patternId: 'p_light', reason: 'low_weight' },
    ]);
    expect(recovery.state).toEqual({ ...state, proposalDiversity: true });
  });

  it('leaves the rollback to the step, and keeps the lasting settings in the state', () => {
    // Act
    const recovery = recover(context({ divergence: rising }), state, config);

    // Assess
    expect(types(recovery.actions)).toEqual([
      'rollback_patterns',
      'reduce_learning_rate',
      'increase_validation_threshold',
    ]);
    expect(recovery.applied).toEqual(['reduce_learning_rate', 'increase_validation_threshold']);
    expect(recovery.state).toMatchObject({ learningRateFactor: 0.5, validateMinAccuracy: 0.8 });
    expect(recovery.patterns).toEqual([]);
  });
});

describe('Function: effectiveConfig', () => {
  it("applies the run's lasting recovery settings to the configured ones", () => {
    // Prepare
    const state = RunEvaluationStateSchema.parse({
      learningRateFactor: 0.5,
      validateMinAccuracy: 0.8,
    });

    // Act
    const effective = effectiveConfig(config, state);

    // Assess
    expect(effective.patterns).toEqual({
      ...config.patterns,
      weightLearningRate: 0.25,
      validateMinAccuracy: 0.8,
    });
    expect(effectiveConfig(config, undefined)).toBe(config);
    const stricter = resolveEvaluationConfig({ patterns: { validateMinAccuracy: 0.9 } });
    expect(effectiveConfig(stricter, state).patterns.validateMinAccuracy).toBe(0.9);
  });
});
