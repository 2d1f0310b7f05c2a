/**
 * What planning decides and the runner carries out (`plan.json`): the task, the last
 * failure, and loop control's mode and prompt sections.
 */
import { z } from 'zod';
import { AgentModeSchema } from './control-history.js';
import { UserStorySchema } from './prd.js';
import { FailureSchema } from './run.js';
import { PlanLearningSchema } from './learning.js';

export const PLAN_SECTIONS = [
  'role',
  'subtask',
  'review',
  'recovery',
  'remediation',
  'anti_pattern',
  'prevention',
  'time_budget',
] as const;

export const PlanControlSchema = z.object({
  mode: AgentModeSchema,
  /** Why this mode, in words. */
  why: z.string(),
  sections: z.array(z.object({ kind: z.enum(PLAN_SECTIONS), title: z.string(), body: z.string() })),
});
export type PlanControl = z.infer<typeof PlanControlSchema>;

/**
 * What prepare-iteration decides and the runner carries out (`plan.json`). The runner,
 * which holds the working copy, renders the final prompt from it and `progress.txt`.
 */
export const IterationPlanSchema = z.object({
  runId: z.string(),
  iteration: z.number().int().positive(),
  attempt: z.number().int().positive(),
  story: UserStorySchema,
  lastFailure: FailureSchema.optional(),
  iterationsLeft: z.number().int().nonnegative(),
  storiesRemaining: z.number().int().nonnegative(),
  /** Loop control's mode and prompt sections for this iteration. */
  control: PlanControlSchema.optional(),
  /** What was learned before (hints, project rules, registry patterns), or the control's nothing. */
  learning: PlanLearningSchema.optional(),
  /** The subtask of a decomposed story this iteration works on; `last` completes the story. */
  subtask: z
    .object({
      id: z.string().min(1),
      title: z.string().min(1),
      acceptanceCriteria: z.array(z.string()),
      position: z.number().int().positive(),
      total: z.number().int().positive(),
      last: z.boolean(),
    })
    .optional(),
  /**
   * Checkpoint tags to create and delete before the agent starts, and the checkpoint to
   * reset the run branch to (a rollback, or the supervisor's RESET).
   */
  checkpoints: z
    .object({
      create: z.array(z.object({ tag: z.string().min(1), commit: z.string().min(1) })),
      drop: z.array(z.string().min(1)),
      resetTo: z
        .object({ tag: z.string().min(1), commit: z.string().min(1), reason: z.string() })
        .optional(),
    })
    .optional(),
});
export type IterationPlan = z.infer<typeof IterationPlanSchema>;
