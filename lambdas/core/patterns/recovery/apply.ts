/**
 * Carries out the recovery actions that change the pattern set or the run's learning
 * settings (pure; the folder's entry is recover.ts). The two with side effects,
 * `rollback_patterns` and `rerun_judge`, are carried out by analyze-gap, which owns the
 * store and the model.
 */
import type { EvaluationConfig } from '../../schemas/evaluation-config.js';
import { applyMerges } from '../lifecycle/dedupe.js';
import { markPruned } from '../lifecycle/pruning.js';
import { recalibrateWeights } from '../lifecycle/weights.js';
import type { PatternEvent, RecoveryAction } from '../../schemas/analysis/actions.js';
import type { RunEvaluationState } from '../../schemas/evaluation-records.js';
import type { Pattern } from '../../schemas/evaluation.js';

export interface AppliedRecovery {
  patterns: Pattern[];
  events: PatternEvent[];
  state: RunEvaluationState;
  /** The action types carried out here, in order. */
  applied: RecoveryAction['type'][];
}

/**
 * @example
 * applyRecoveryActions(patterns, [{ type: 'prune_patterns', ids: ['p_007'], ... }], state, config)
 *   .patterns.find((p) => p.id === 'p_007')?.status; // 'pruned'
 */
export function applyRecoveryActions(
  patterns: readonly Pattern[],
  actions: readonly RecoveryAction[],
  state: RunEvaluationState,
  config: Pick<EvaluationConfig, 'patterns'>,
): AppliedRecovery {
  let current = [...patterns];
  let next = { ...state };
  const events: PatternEvent[] = [];
  const applied: RecoveryAction['type'][] = [];
  for (const action of actions) {
    switch (action.type) {
      case 'prune_patterns': {
        // The planned ids are live patterns; a merge before may have pruned some already.
        const pruned = markPruned(current, action.ids, action.criterion);
        current = pruned.patterns;
        events.push(...pruned.events);
        break;
      }
      case 'reset_provisional': {
        // A provisional pattern's trial starts again: its record so far is what stalled.
        const ids = new Set(action.ids);
        current = current.map((pattern) =>
          ids.has(pattern.id) && pattern.status === 'provisional'
            ? { ...pattern, timesTested: 0, timesCorrect: 0 }
            : pattern,
        );
        break;
      }
      case 'deduplicate_patterns': {
        const merged = applyMerges(
          current,
          action.merges.map((merge) => ({ keepId: merge.keepId, mergeIds: merge.mergeIds })),
        );
        current = merged.patterns;
        events.push(...merged.events);
        break;
      }
      case 'recalibrate_weights': {
        // Every tested pattern straight to its measured accuracy (learning rate 1).
        const weighted = recalibrateWeights(current, {
          patterns: { ...config.patterns, weightLearningRate: 1 },
        });
        current = weighted.patterns;
        events.push(...weighted.events);
        break;
      }
      case 'reduce_learning_rate':
        next = { ...next, learningRateFactor: next.learningRateFactor * action.factor };
        break;
      case 'increase_validation_threshold':
        next = {
          ...next,
          validateMinAccuracy: Math.max(next.validateMinAccuracy ?? 0, action.minAccuracy),
        };
        break;
      case 'increase_proposal_diversity':
        next = { ...next, proposalDiversity: true };
        break;
      case 'rollback_patterns':
      case 'rerun_judge':
        continue;
    }
    applied.push(action.type);
  }
  return { patterns: current, events, state: next, applied };
}
