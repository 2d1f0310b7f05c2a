/** Component health (the design document's `ComponentHealthStatus`, with typed flags). */
import { z } from 'zod';

export const HEALTH_FLAGS = [
  'no_results',
  'all_same_score',
  'scores_out_of_range',
  'zero_patterns_matched',
  'low_coverage',
  'judge_unreliable',
  'high_variance',
  'no_paired_artefacts',
  'unpaired_artefacts',
  'high_rejection_rate',
] as const;
export const HealthFlagSchema = z.enum(HEALTH_FLAGS);
export type HealthFlag = z.infer<typeof HealthFlagSchema>;

/**
 * Flags that warn without making the component unhealthy (the document's example log shows
 * `pattern_learner` healthy with `high_rejection_rate`).
 */
export const WARNING_FLAGS: ReadonlySet<HealthFlag> = new Set<HealthFlag>([
  'low_coverage',
  'high_variance',
  'unpaired_artefacts',
  'high_rejection_rate',
]);

const DetailValue = z.union([
  z.number(),
  z.string(),
  z.boolean(),
  z.null(),
  z.array(z.union([z.number(), z.string()])),
]);

export const ComponentHealthStatusSchema = z.object({
  healthy: z.boolean(),
  flags: z.array(HealthFlagSchema),
  details: z.record(z.string(), DetailValue),
});
export type ComponentHealthStatus = z.infer<typeof ComponentHealthStatusSchema>;

export const COMPONENTS = [
  'cheap_evaluator',
  'expensive_evaluator',
  'gap_calculator',
  'pattern_learner',
] as const;
export type Component = (typeof COMPONENTS)[number];

export const ComponentHealthSchema = z.object({
  cheap_evaluator: ComponentHealthStatusSchema,
  expensive_evaluator: ComponentHealthStatusSchema,
  gap_calculator: ComponentHealthStatusSchema,
  pattern_learner: ComponentHealthStatusSchema,
});
export type ComponentHealth = z.infer<typeof ComponentHealthSchema>;
