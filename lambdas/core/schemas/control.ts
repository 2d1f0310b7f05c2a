/**
 * What loop control keeps between iterations (on the run) and records per iteration (on
 * the iteration): the history the decisions read, and the decisions with their reasons.
 */
import { z } from 'zod';
import { AgentModeSchema, IterationSummarySchema } from './control-history.js';
import {
  StagnationAssessmentSchema,
  StagnationRiskSchema,
  SupervisorVerdictSchema,
} from './control-decisions.js';
import {
  GateCountsByNameSchema,
  ProgressSignalsSchema,
  UncommittedEditsSchema,
} from './progress-signals.js';

/** How many recent iterations the run keeps for the decisions (windows are ≤ 15 long). */
export const CONTROL_HISTORY_LIMIT = 20;

/** The quality a checkpoint records: what a rollback compares against. */
export const QualityMetricsSchema = z
  .object({
    testsPassed: z.number().int().nonnegative(),
    testsTotal: z.number().int().nonnegative(),
    /** testsPassed ÷ testsTotal, 0–1 (the caller decides what a run without tests scores). */
    passRate: z.number().min(0).max(1),
    warnings: z.number().int().nonnegative(),
    storiesComplete: z.number().int().nonnegative(),
  })
  .refine((q) => q.testsPassed <= q.testsTotal, {
    message: 'testsPassed cannot exceed testsTotal',
    path: ['testsPassed'],
  });
export type QualityMetrics = z.infer<typeof QualityMetricsSchema>;

/** A point the run can go back to: a git tag on a counted commit, and what held there. */
export const RunCheckpointSchema = z.object({
  tag: z.string().min(1),
  iteration: z.number().int().positive(),
  commit: z.string().min(1),
  createdAt: z.iso.datetime({ offset: true }),
  /** Its stories complete are those completed by then: a reset reopens the ones after it. */
  quality: QualityMetricsSchema,
  why: z.string(),
});
export type RunCheckpoint = z.infer<typeof RunCheckpointSchema>;

export const RunControlStateSchema = z.object({
  history: z.array(IterationSummarySchema).default([]),
  /** The gates' counts on the code the next agent starts from. */
  baselineGateCounts: GateCountsByNameSchema.default({}),
  uncommittedEdits: UncommittedEditsSchema.default({}),
  taskSwitchCount: z.number().int().nonnegative().default(0),
  /** The task worked on last, when it was first worked on, and since which iteration. */
  currentTask: z
    .object({
      taskId: z.string(),
      startedIteration: z.number().int().positive(),
      startedAt: z.iso.datetime({ offset: true }),
    })
    .optional(),
  /** The latest decisions, with the iteration they were made after. */
  verdict: SupervisorVerdictSchema.extend({ iteration: z.number().int().positive() }).optional(),
  stagnation: StagnationAssessmentSchema.extend({
    iteration: z.number().int().positive(),
  }).optional(),
  checkpoints: z.array(RunCheckpointSchema).default([]),
  /** Tags the runner creates and deletes before the next iteration's agent starts. */
  checkpointChanges: z
    .object({
      after: z.number().int().positive(),
      create: z.array(z.object({ tag: z.string(), commit: z.string() })),
      drop: z.array(z.string()),
    })
    .optional(),
  /** A rollback or a RESET verdict: the next iteration starts from this checkpoint. */
  reset: z
    .object({
      after: z.number().int().positive(),
      checkpoint: RunCheckpointSchema,
      reason: z.string(),
    })
    .optional(),
});
export type RunControlState = z.infer<typeof RunControlStateSchema>;

/** Loop control's view of one iteration, kept on its record (`ralph show`). */
export const IterationControlSchema = z.object({
  mode: AgentModeSchema,
  signals: ProgressSignalsSchema.omit({
    gateCounts: true,
    nextBaselineGateCounts: true,
    nextUncommittedEdits: true,
  }),
  verdict: SupervisorVerdictSchema,
  stagnation: StagnationAssessmentSchema,
  risk: StagnationRiskSchema.optional(),
});
export type IterationControl = z.infer<typeof IterationControlSchema>;
