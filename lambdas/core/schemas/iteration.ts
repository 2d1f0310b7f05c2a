/** An iteration's record (DynamoDB): planned, run by the runner, recorded. */
import { z } from 'zod';
import { AgentModeSchema } from './control-history.js';
import { CostReceiptSchema } from './cost-receipt.js';
import { IterationControlSchema } from './control.js';
import { IterationLearningSchema } from './learning.js';
import { IterationEvaluationSummarySchema } from './evaluation-records.js';
import { GateResultSchema } from './gate-result.js';
import { RunnerObservationSchema } from './observation.js';
import { IterationOutcomeSchema } from './outcome.js';

const IsoDate = z.iso.datetime({ offset: true });

export const ITERATION_STATUSES = ['planned', 'running', 'recorded'] as const;

export const IterationDurationsSchema = z.object({
  agentMs: z.number().nonnegative(),
  gatesMs: z.number().nonnegative(),
  /** The runner's own time: git, uploads, bookkeeping (agent and gates excluded). */
  runnerMs: z.number().nonnegative(),
});

/** What the runner reports about an iteration; the iteration record keeps the same fields. */
export const IterationReportFields = {
  cause: z.string().optional(),
  gates: z.array(GateResultSchema).default([]),
  commit: z.string().optional(),
  /** The side ref that keeps a reset change as evidence. */
  evidenceRef: z.string().optional(),
  agentExitCode: z.number().int().nullable().optional(),
  /** The agent said `<promise>COMPLETE</promise>`: a claim, never a verdict. */
  agentClaimedComplete: z.boolean().default(false),
  filesChanged: z.array(z.string()).default([]),
  /** The change's size, the gates' counts and the agent's activity (loop control reads it). */
  observation: RunnerObservationSchema.optional(),
  /** Ids of the documents the evaluation suite wrote (artefacts of kind `document`). */
  documents: z.array(z.string()).default([]),
  /** Artefact kind → S3 key, for every artefact this iteration wrote. */
  artefacts: z.record(z.string(), z.string()).default({}),
  /** What the agent's final message said: hints and registry patterns learn from it. */
  agentReport: z
    .object({ summary: z.string().optional(), learnings: z.array(z.string()).default([]) })
    .optional(),
  /** What the prompt carried of what was learned (the runner reports what it rendered). */
  learning: IterationLearningSchema.optional(),
};

export const IterationRecordSchema = z.object({
  runId: z.string().min(1),
  iteration: z.number().int().positive(),
  segment: z.number().int().positive(),
  status: z.enum(ITERATION_STATUSES),
  version: z.number().int().positive(),
  taskId: z.string(),
  taskTitle: z.string(),
  /** Which attempt at this task this iteration is (1 for the first). */
  attempt: z.number().int().positive(),
  plannedAt: IsoDate,
  startedAt: IsoDate.optional(),
  endedAt: IsoDate.optional(),
  outcome: IterationOutcomeSchema.optional(),
  durations: IterationDurationsSchema.optional(),
  ...IterationReportFields,
  evaluation: IterationEvaluationSummarySchema.optional(),
  /** The mode (role) the iteration's prompt gave the agent. */
  mode: AgentModeSchema.default('implementer'),
  /** Loop control's view: progress signals, supervisor verdict, stagnation, risk. */
  control: IterationControlSchema.optional(),
  /** What it cost, by model and role (written when it is recorded, and by evaluation). */
  receipt: CostReceiptSchema.optional(),
});
export type IterationRecord = z.infer<typeof IterationRecordSchema>;
