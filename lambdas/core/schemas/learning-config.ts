/**
 * How a run learns and what it injects (`config.learning`): the design's numbers, each
 * configurable (shared/design/learned-rules.md, shared/design/cross-loop-learning.md).
 */
import { z } from 'zod';

const Share = z.number().min(0).max(1);

export const LearningConfigSchema = z.strictObject({
  /** Off: nothing is recorded, promoted, extracted or injected. */
  enabled: z.boolean().default(true),
  /** Stage 0A: hints of earlier iterations per prompt. */
  maxHints: z.number().int().nonnegative().default(5),
  /** Stage 0B: project rules per prompt. */
  maxRules: z.number().int().nonnegative().default(10),
  /** A hint group is promoted to a project rule when seen this often in a run. */
  promoteAt: z.number().int().min(1).default(2),
  /** The registry: candidates below this success rate are not injected. */
  minSuccessRate: Share.default(0.6),
  /** Registry patterns per prompt, best first (anti-patterns are counted apart). */
  topK: z.number().int().nonnegative().default(5),
  /** Registry patterns per prompt in all, anti-patterns included. */
  maxInjected: z.number().int().nonnegative().default(10),
  /** Also write what the run teaches to the organisation-wide registry. */
  shareWithOrganisation: z.boolean().default(true),
  /**
   * The control group: tasks that run with nothing injected, so the effect of what is
   * injected is measured, not assumed. `tasks` names them outright (an experiment's
   * pairs); otherwise a task is a control when its stable hash falls under `share`.
   */
  control: z
    .strictObject({
      share: Share.default(0.1),
      tasks: z.array(z.string().min(1)).optional(),
    })
    .prefault({}),
  /** Registry pruning: moved to the archive, never deleted. */
  prune: z
    .strictObject({
      /** Below this success rate … */
      minSuccessRate: Share.default(0.5),
      /** … after at least this many uses. */
      minUses: z.number().int().positive().default(3),
      /** Or not used (nor created) for this many days. */
      maxIdleDays: z.number().int().positive().default(90),
    })
    .prefault({}),
});
export type LearningConfig = z.infer<typeof LearningConfigSchema>;
export const DEFAULT_LEARNING_CONFIG: LearningConfig = LearningConfigSchema.parse({});
