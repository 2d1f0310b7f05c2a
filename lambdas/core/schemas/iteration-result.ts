/** What the runner reports for one iteration (`result.json`): its writer and readers share it. */
import { z } from 'zod';
import { IterationDurationsSchema, IterationReportFields } from './iteration.js';
import { AgentSessionUsageSchema } from './cost-receipt.js';
import { InvestigationResultSchema } from './investigation.js';
import { IterationOutcomeSchema } from './outcome.js';
import { ReviewFindingSchema } from './review.js';

/** What the runner reports for one iteration (`result.json`), read by record-iteration. */
export const IterationResultSchema = z.object({
  runId: z.string(),
  iteration: z.number().int().positive(),
  taskId: z.string(),
  outcome: IterationOutcomeSchema,
  /** Text for the next agent when this iteration did not pass. */
  failureDetail: z.string().default(''),
  durations: IterationDurationsSchema,
  startedAt: z.iso.datetime({ offset: true }),
  endedAt: z.iso.datetime({ offset: true }),
  /** The subtask this iteration worked on, when the story is decomposed. */
  subtaskId: z.string().optional(),
  /**
   * What quality enforcement found on a passed iteration that should be looked at but does
   * not block (`assessQuality`): the task goes to review instead of completing.
   */
  review: z.object({ findings: z.array(ReviewFindingSchema).min(1) }).optional(),
  /** An investigate iteration's analysis, passes, gates and fix. */
  investigation: InvestigationResultSchema.optional(),
  /** What the agent reported it used (Claude Code's stream-json `result`); absent: it did not say. */
  agentUsage: AgentSessionUsageSchema.optional(),
  ...IterationReportFields,
});
export type IterationResult = z.infer<typeof IterationResultSchema>;
