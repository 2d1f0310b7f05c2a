/**
 * Automatic recovery (the design document's "Automatic Recovery Actions"), planned and
 * applied in one place. This is the folder's entry; its two halves are
 * - plan.ts: the document's table, from what the checks found (regression, divergence,
 *   an unreliable judge) to typed actions;
 * - apply.ts: carrying out the actions that change the pattern set or the run's learning
 *   settings.
 * `recover` does both. The two actions with side effects, `rollback_patterns` (a store)
 * and `rerun_judge` (the model), are planned here and carried out by the analyze-gap step.
 */
import type { PatternEvent, RecoveryAction } from '../../schemas/analysis/actions.js';
import type { EvaluationConfig } from '../../schemas/evaluation-config.js';
import type { RunEvaluationState } from '../../schemas/evaluation-records.js';
import type { Pattern } from '../../schemas/evaluation.js';
import { applyRecoveryActions } from './apply.js';
import { planRecovery, type RecoveryConfig, type RecoveryContext } from './plan.js';

export interface Recovery {
  /** Every action planned, in the order of the table (the iteration log records them). */
  actions: RecoveryAction[];
  /** The patterns after the actions carried out here. */
  patterns: Pattern[];
  /** What those actions did to single patterns (prunes, merges, reweights). */
  events: PatternEvent[];
  /** The run's evaluation state with the lasting settings changed (learning rate, ...). */
  state: RunEvaluationState;
  /** The action types carried out here, in order (not the rollback nor the judge re-run). */
  applied: RecoveryAction['type'][];
}

/**
 * The recovery actions for what the latest iteration's checks found, and the pure ones
 * carried out on `context.patterns` and the run's `state`.
 *
 * @example
 * const recovery = recover({ iteration: 7, currentVersion: 5, patterns, artefactIds, divergence }, state, config);
 * recovery.actions.find((action) => action.type === 'rollback_patterns'); // for the step
 * recovery.patterns; // pruned, merged, reweighted
 */
export function recover(
  context: RecoveryContext,
  state: RunEvaluationState,
  config: RecoveryConfig,
): Recovery {
  const actions = planRecovery(context, config);
  const applied = applyRecoveryActions(context.patterns, actions, state, config);
  return { actions, ...applied };
}

/**
 * The run's analysis settings with its recovery actions' lasting effects applied: the
 * weight learning rate reduced, the validation accuracy raised.
 *
 * @example
 * effectiveConfig(config, { ...state, learningRateFactor: 0.5 }).patterns.weightLearningRate; // 0.25
 */
export function effectiveConfig<C extends Pick<EvaluationConfig, 'patterns'>>(
  config: C,
  state: RunEvaluationState | undefined,
): C {
  if (!state) return config;
  const { patterns } = config;
  return {
    ...config,
    patterns: {
      ...patterns,
      weightLearningRate: patterns.weightLearningRate * state.learningRateFactor,
      validateMinAccuracy: Math.max(patterns.validateMinAccuracy, state.validateMinAccuracy ?? 0),
    },
  };
}
