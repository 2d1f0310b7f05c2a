/**
 * What an iteration did to its patterns (lifecycle events) and what it asks the orchestrator
 * to do (recovery actions, the design document's `RECOVERY_ACTIONS` table as typed objects).
 */
import { z } from 'zod';

const PatternId = z.string().min(1);

/** Lifecycle events: each is one change to one pattern set, already applied. */
export const PatternEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('committed_pattern'), patternId: PatternId, accuracy: z.number() }),
  z.object({ type: z.literal('rejected_pattern'), patternId: PatternId, accuracy: z.number() }),
  z.object({
    type: z.literal('merged_patterns'),
    keptId: PatternId,
    mergedIds: z.array(PatternId).min(1),
  }),
  z.object({
    type: z.literal('pruned_pattern'),
    patternId: PatternId,
    reason: z.enum(['unused', 'low_weight', 'never_fired']),
  }),
  z.object({
    type: z.literal('reweighted_pattern'),
    patternId: PatternId,
    from: z.number().min(0).max(2),
    to: z.number().min(0).max(2),
  }),
]);
export type PatternEvent = z.infer<typeof PatternEventSchema>;

/** Why a recovery action was planned: a row of the recovery table. */
export const RECOVERY_TRIGGERS = [
  'gap_increasing',
  'gap_plateau',
  'cheap_mode_degraded',
  'pattern_explosion',
  'expensive_mode_shifted',
  'judge_unreliable',
  'regression',
] as const;
export const RecoveryTriggerSchema = z.enum(RECOVERY_TRIGGERS);
export type RecoveryTrigger = z.infer<typeof RecoveryTriggerSchema>;

/** Every action names the table row that asked for it and the document's words for it. */
const Origin = {
  trigger: RecoveryTriggerSchema,
  /** The document's action id (`prune_low_weight_patterns`, `prune_by_coverage`, ...). */
  documentAction: z.string(),
  description: z.string(),
};

export const RecoveryActionSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('rollback_patterns'),
    toVersion: z.number().int().positive(),
    ...Origin,
  }),
  z.object({ type: z.literal('reduce_learning_rate'), factor: z.number().positive(), ...Origin }),
  z.object({
    type: z.literal('increase_validation_threshold'),
    minAccuracy: z.number().min(0).max(1),
    ...Origin,
  }),
  z.object({ type: z.literal('increase_proposal_diversity'), ...Origin }),
  z.object({
    type: z.literal('prune_patterns'),
    criterion: z.enum(['low_weight', 'never_fired']),
    ids: z.array(PatternId).min(1),
    ...Origin,
  }),
  z.object({ type: z.literal('reset_provisional'), ids: z.array(PatternId).min(1), ...Origin }),
  z.object({ type: z.literal('recalibrate_weights'), ...Origin }),
  z.object({
    type: z.literal('deduplicate_patterns'),
    threshold: z.number().min(0).max(1),
    merges: z.array(z.object({ keepId: PatternId, mergeIds: z.array(PatternId).min(1) })).min(1),
    ...Origin,
  }),
  z.object({
    type: z.literal('rerun_judge'),
    runs: z.number().int().positive(),
    artefactIds: z.array(z.string()),
    ...Origin,
  }),
]);
export type RecoveryAction = z.infer<typeof RecoveryActionSchema>;
export type RecoveryActionType = RecoveryAction['type'];

/** An entry of the iteration log's `actions_taken`: a lifecycle event or a recovery action. */
export const ActionTakenSchema = z.union([PatternEventSchema, RecoveryActionSchema]);
export type ActionTaken = z.infer<typeof ActionTakenSchema>;
