import { z } from 'zod';
import { LearningConfigSchema } from './learning-config.js';
import { LoopControlConfigSchema } from './control-config.js';
import { StoredEvaluationConfigSchema } from './evaluation-config.js';
import { historyProblem } from './execution-history.js';
import { PricingConfigSchema } from './pricing-config.js';

/** A quality gate: a shell command the runner (never the agent) runs after each iteration. */
export const GateSchema = z.strictObject({
  name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits and dashes'),
  command: z.string().min(1),
  timeoutSeconds: z.number().int().positive().default(600),
  /** A failed blocking gate resets the iteration's change; an advisory one is only recorded. */
  blocking: z.boolean().default(true),
});
export type Gate = z.infer<typeof GateSchema>;

export const AgentConfigSchema = z.strictObject({
  /**
   * The agent command, run through `sh -c` in the working copy with the prompt on stdin.
   * When absent, `claude -p ...` is used if `claude` is on the PATH.
   */
  command: z.string().min(1).optional(),
  timeoutSeconds: z.number().int().positive().default(1800),
  /** Extra environment for the agent process. */
  env: z.record(z.string(), z.string()).default({}),
});

export const LimitsSchema = z.strictObject({
  maxIterations: z.number().int().positive().default(10),
  /**
   * A new segment (execution) this often. Unset: as many as fit in a Standard execution's
   * 25,000-event history, at most 25 (execution-history.ts); set, it must fit.
   */
  iterationsPerSegment: z.number().int().positive().optional(),
  /** Consecutive iterations that end without a counted commit before the run aborts. */
  maxConsecutiveFailures: z.number().int().positive().default(5),
  /** USD: the run stops at its next step once its receipts sum past this. */
  maxCostUsd: z.number().positive().optional(),
  /** USD: a run of the project stops at its next step once the project's spend today (UTC) passes this. */
  maxCostUsdPerProjectDay: z.number().positive().optional(),
});

export const ModelsSchema = z.strictObject({
  judge: z.string().min(1).default('claude-sonnet-4-6'),
  proposer: z.string().min(1).default('claude-sonnet-4-6'),
});

/** `ralph.config.json`: everything a run can be told, each with a default. */
export const RunConfigSchema = z
  .strictObject({
    agent: AgentConfigSchema.prefault({}),
    gates: z
      .array(GateSchema)
      .default([])
      .superRefine((gates, ctx) => {
        const names = new Set<string>();
        gates.forEach((gate, index) => {
          if (names.has(gate.name))
            ctx.addIssue({
              code: 'custom',
              path: [index, 'name'],
              message: `duplicate gate "${gate.name}"`,
            });
          names.add(gate.name);
        });
      }),
    limits: LimitsSchema.prefault({}),
    models: ModelsSchema.prefault({}),
    /** Prices that replace the built-in table's (judge/pricing.ts) for this run's receipts. */
    pricing: PricingConfigSchema.optional(),
    /**
     * Dual-mode evaluation (shared/design/dual-mode-evaluation.md), in sections; a flat
     * config of an older run is read too (evaluation-config-flat.ts).
     */
    evaluation: StoredEvaluationConfigSchema.prefault({}),
    /** Loop control (shared/design/ralph-loop-enhancements.md): stagnation, supervisor, ... */
    control: LoopControlConfigSchema.prefault({}),
    /** Learning across iterations, runs and projects: hints, rules, the pattern registry. */
    learning: LearningConfigSchema.prefault({}),
  })
  .superRefine((config, ctx) => {
    const problem = historyProblem(config);
    if (problem)
      ctx.addIssue({ code: 'custom', path: ['limits', 'iterationsPerSegment'], message: problem });
  });
export type RunConfig = z.infer<typeof RunConfigSchema>;
export type RunConfigInput = z.input<typeof RunConfigSchema>;

/** The agent command used when none is configured and `claude` is on the PATH. */
export const CLAUDE_CODE_COMMAND =
  'claude -p --dangerously-skip-permissions --output-format stream-json --verbose';
