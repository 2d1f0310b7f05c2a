/**
 * The design document's recovery table (`RECOVERY_ACTIONS`) as typed actions the
 * orchestrator executes (the folder's entry is recover.ts, which also applies them). Rows,
 * in the order they are consulted:
 *
 * | trigger                  | document actions                                                     |
 * | ------------------------ | -------------------------------------------------------------------- |
 * | `regression`             | revert_pattern_change (rollback to the previous iteration's version)  |
 * | `gap_increasing`         | rollback_patterns, reduce_learning_rate, increase_validation_threshold |
 * | `gap_plateau`            | increase_proposal_diversity, prune_low_weight_patterns, reset_provisional |
 * | `cheap_mode_degraded`    | rollback_patterns, recalibrate_weights                               |
 * | `pattern_explosion`      | deduplicate_patterns, prune_by_coverage                              |
 * | `expensive_mode_shifted` | rerun_judge (every artefact, median of `judge.reruns`)                |
 * | `judge_unreliable`       | rerun_judge (the failed artefacts)                                   |
 *
 * The last two rows are ours, from the document's "Expensive mode unreliable → Run 3x, use
 * median, flag high variance" (its table has no row for a shifted judge). An action that
 * would change nothing (a rollback to the version in use, a prune with no candidate) is left
 * out, and each kind of action appears once: the first row that asks for it wins.
 */
import type { EvaluationConfig } from '../../schemas/evaluation-config.js';
import { fallsBelow } from '../../shared/compare.js';
import type { JudgeReliability } from '../../gap/judge-reliability.js';
import { findNearDuplicates } from '../lifecycle/dedupe.js';
import type { RecoveryAction, RecoveryTrigger } from '../../schemas/analysis/actions.js';
import type { DivergenceCheck, RegressionCheck } from '../../schemas/analysis/checks.js';
import type { Pattern } from '../../schemas/evaluation.js';

export type RecoveryConfig = Pick<EvaluationConfig, 'recovery' | 'patterns' | 'judge'>;

export interface RecoveryContext {
  /** The latest iteration. */
  iteration: number;
  /** The pattern set version that scored the latest iteration. */
  currentVersion: number;
  /** The patterns as they stand now (after this iteration's learning). */
  patterns: readonly Pattern[];
  /** The latest iteration's artefacts (what `rerun_judge` re-evaluates on a shifted judge). */
  artefactIds: readonly string[];
  divergence: DivergenceCheck;
  regression?: RegressionCheck;
  reliability?: JudgeReliability;
}

interface Row {
  documentAction: string;
  description: string;
  build: (
    context: RecoveryContext,
    config: RecoveryConfig,
    origin: { trigger: RecoveryTrigger; documentAction: string; description: string },
  ) => RecoveryAction | null;
}

const isLive = (pattern: Pattern): boolean =>
  pattern.status === 'active' || pattern.status === 'provisional';

function rollbackTo(version: number | null, context: RecoveryContext) {
  return (origin: { trigger: RecoveryTrigger; documentAction: string; description: string }) =>
    version === null || version === context.currentVersion
      ? null
      : ({ type: 'rollback_patterns', toVersion: version, ...origin } as const);
}

function nonEmpty<T>(items: T[]): T[] | null {
  return items.length > 0 ? items : null;
}

const ROWS: Record<RecoveryTrigger, readonly Row[]> = {
  regression: [
    {
      documentAction: 'revert_pattern_change',
      description: 'Automatic rollback + re-evaluation',
      build: (context, _config, origin) =>
        rollbackTo(context.regression?.rollbackToVersion ?? null, context)(origin),
    },
  ],
  gap_increasing: [
    {
      documentAction: 'rollback_patterns',
      description: 'Revert to last known good pattern set',
      build: (context, _config, origin) =>
        rollbackTo(context.divergence.lastKnownGoodVersion, context)(origin),
    },
    {
      documentAction: 'reduce_learning_rate',
      description: 'Make smaller pattern changes',
      build: (_context, config, origin) => ({
        type: 'reduce_learning_rate',
        factor: config.recovery.learningRateReduction,
        ...origin,
      }),
    },
    {
      documentAction: 'increase_validation_threshold',
      description: 'Require 80% accuracy to commit',
      build: (_context, config, origin) => ({
        type: 'increase_validation_threshold',
        minAccuracy: config.recovery.raisedValidationAccuracy,
        ...origin,
      }),
    },
  ],
  gap_plateau: [
    {
      documentAction: 'increase_proposal_diversity',
      description: 'Try more varied pattern types',
      build: (_context, _config, origin) => ({ type: 'increase_proposal_diversity', ...origin }),
    },
    {
      documentAction: 'prune_low_weight_patterns',
      description: 'Remove patterns with < 0.3 weight',
      build: (context, config, origin) => {
        const ids = nonEmpty(
          context.patterns
            .filter((p) => isLive(p) && fallsBelow(p.weight, config.recovery.pruneMaxWeight))
            .map((p) => p.id),
        );
        return ids && { type: 'prune_patterns', criterion: 'low_weight', ids, ...origin };
      },
    },
    {
      documentAction: 'reset_provisional',
      description: 'Clear provisional patterns, start fresh proposals',
      build: (context, _config, origin) => {
        const ids = nonEmpty(
          context.patterns.filter((p) => p.status === 'provisional').map((p) => p.id),
        );
        return ids && { type: 'reset_provisional', ids, ...origin };
      },
    },
  ],
  cheap_mode_degraded: [
    {
      documentAction: 'rollback_patterns',
      description: 'Revert pattern changes',
      build: (context, _config, origin) =>
        rollbackTo(context.divergence.previousVersion, context)(origin),
    },
    {
      documentAction: 'recalibrate_weights',
      description: 'Re-run weight optimization',
      build: (_context, _config, origin) => ({ type: 'recalibrate_weights', ...origin }),
    },
  ],
  pattern_explosion: [
    {
      documentAction: 'deduplicate_patterns',
      description: 'Merge semantically similar patterns',
      build: (context, config, origin) => {
        const threshold = config.patterns.dedupeJaccardThreshold;
        const merges = findNearDuplicates(context.patterns, threshold);
        return merges.length === 0
          ? null
          : {
              type: 'deduplicate_patterns',
              threshold,
              merges,
              ...origin,
            };
      },
    },
    {
      documentAction: 'prune_by_coverage',
      description: 'Remove patterns that never fire',
      build: (context, _config, origin) => {
        const ids = nonEmpty(
          context.patterns
            .filter(
              (p) => isLive(p) && p.timesFired === 0 && p.learnedIteration < context.iteration,
            )
            .map((p) => p.id),
        );
        return ids && { type: 'prune_patterns', criterion: 'never_fired', ids, ...origin };
      },
    },
  ],
  expensive_mode_shifted: [
    {
      documentAction: 'rerun_judge',
      description: 'Run 3x, use median, flag high variance',
      build: (context, config, origin) => ({
        type: 'rerun_judge',
        runs: config.judge.reruns,
        artefactIds: [...context.artefactIds],
        ...origin,
      }),
    },
  ],
  judge_unreliable: [
    {
      documentAction: 'rerun_judge',
      description: 'Run 3x, use median, flag high variance',
      build: (context, config, origin) => {
        const ids = nonEmpty([...(context.reliability?.failedArtefactIds ?? [])]);
        return (
          ids && { type: 'rerun_judge', runs: config.judge.reruns, artefactIds: ids, ...origin }
        );
      },
    },
  ],
};

/**
 * The document's table, as data: trigger → its actions' ids and descriptions.
 *
 * @example
 * RECOVERY_TABLE.gap_plateau[1]; // { documentAction: 'prune_low_weight_patterns', description: 'Remove patterns with < 0.3 weight' }
 */
export const RECOVERY_TABLE: Readonly<
  Record<RecoveryTrigger, readonly { documentAction: string; description: string }[]>
> = Object.fromEntries(
  Object.entries(ROWS).map(([trigger, rows]) => [
    trigger,
    rows.map(({ documentAction, description }) => ({ documentAction, description })),
  ]),
) as Record<RecoveryTrigger, { documentAction: string; description: string }[]>;

/**
 * The triggers that hold, in the order their rows are consulted.
 *
 * @example
 * recoveryTriggers({ divergence, regression }); // ['gap_increasing', 'cheap_mode_degraded']
 */
export function recoveryTriggers(
  context: Pick<RecoveryContext, 'divergence' | 'regression' | 'reliability'>,
): RecoveryTrigger[] {
  const { divergence } = context;
  const triggers: RecoveryTrigger[] = [];
  if (context.regression?.verdict === 'rollback') triggers.push('regression');
  if (divergence.reason) triggers.push(divergence.reason);
  if (divergence.diagnosis && divergence.diagnosis !== 'unknown')
    triggers.push(divergence.diagnosis);
  if (divergence.patternExplosion && !triggers.includes('pattern_explosion'))
    triggers.push('pattern_explosion');
  if (context.reliability?.unreliable) triggers.push('judge_unreliable');
  return triggers;
}

function actionKey(action: RecoveryAction): string {
  return action.type === 'prune_patterns' ? `${action.type}:${action.criterion}` : action.type;
}

/**
 * The recovery actions for what the latest iteration's checks found.
 *
 * @example
 * planRecovery({ iteration: 7, currentVersion: 5, patterns, artefactIds, divergence }, config);
 * // [{ type: 'rollback_patterns', toVersion: 3, trigger: 'gap_increasing', ... },
 * //  { type: 'reduce_learning_rate', factor: 0.5, ... }, ...]
 */
export function planRecovery(context: RecoveryContext, config: RecoveryConfig): RecoveryAction[] {
  const planned = new Map<string, RecoveryAction>();
  for (const trigger of recoveryTriggers(context))
    for (const row of ROWS[trigger]) {
      const { documentAction, description } = row;
      const action = row.build(context, config, { trigger, documentAction, description });
      if (action && !planned.has(actionKey(action))) planned.set(actionKey(action), action);
    }
  return [...planned.values()];
}
