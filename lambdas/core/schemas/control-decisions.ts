/**
 * Loop control's decisions as they are stored (on the run and on each iteration): the
 * stagnation assessment, the supervisor's verdict and the stagnation risk.
 */
import { z } from 'zod';
import { AgentModeSchema } from './control-history.js';

const count = () => z.number().int().nonnegative();

export const StagnationPatternSchema = z.discriminatedUnion('type', [
  /** One error signature occurred `count` times in the window. */
  z.object({ type: z.literal('repeating_error'), error: z.string(), count: count() }),
  /** Back-and-forth mode switches in the window (see `modeReturns`). */
  z.object({ type: z.literal('mode_oscillation'), switches: count() }),
  /** The latest pass rate is `dropPercent` percentage points below the window's best. */
  z.object({
    type: z.literal('test_regression'),
    dropPercent: z.number().nonnegative(),
    bestPassRate: z.number().min(0).max(1),
    currentPassRate: z.number().min(0).max(1),
  }),
  /** The latest warning count: `rise` above the window's lowest, and the highest since it. */
  z.object({ type: z.literal('accumulating_warnings'), count: count(), rise: count() }),
  /** Consecutive latest iterations without a meaningful change. */
  z.object({ type: z.literal('no_meaningful_changes'), iterations: count() }),
]);
export type StagnationPattern = z.infer<typeof StagnationPatternSchema>;

export const STAGNATION_LEVELS = ['none', 'warning', 'elevated', 'critical'] as const;
export const StagnationLevelSchema = z.enum(STAGNATION_LEVELS);
export type StagnationLevel = z.infer<typeof StagnationLevelSchema>;

export const StagnationActionSchema = z.enum([
  'none',
  'switch_mode',
  'consult_supervisor',
  'abort',
]);
export type StagnationAction = z.infer<typeof StagnationActionSchema>;

export const StagnationAssessmentSchema = z.object({
  level: StagnationLevelSchema,
  /** Consecutive latest iterations without progress. */
  count: z.number().int().nonnegative(),
  /** `loop.stagnationThreshold`: one level unit. */
  threshold: z.number().int().positive(),
  action: StagnationActionSchema,
  /** The mode to switch to, with `switch_mode`. */
  switchTo: AgentModeSchema.optional(),
  diagnostics: z.object({
    patterns: z.array(StagnationPatternSchema),
    summary: z.string(),
  }),
});
export type StagnationAssessment = z.infer<typeof StagnationAssessmentSchema>;

export const VERDICTS = ['PROCEED', 'PAUSE', 'ABORT', 'SWITCH_MODE', 'RESET'] as const;
export const VerdictSchema = z.enum(VERDICTS);

/** Which branch of the decision tree gave the verdict. */
export const VERDICT_RULES = [
  'low_pass_rate',
  'too_many_warnings',
  'mode_oscillation',
  'repeating_error',
  'no_commit',
  'healthy',
] as const;
export const VerdictRuleSchema = z.enum(VERDICT_RULES);

export const SupervisorVerdictSchema = z.object({
  verdict: VerdictSchema,
  rule: VerdictRuleSchema,
  /** Why, in words with the numbers. */
  reason: z.string(),
  /** The mode to switch to, with SWITCH_MODE. */
  switchTo: AgentModeSchema.optional(),
});
export type SupervisorVerdict = z.infer<typeof SupervisorVerdictSchema>;

export const RISK_SIGNALS = [
  'repeated_file_touches',
  'stagnant_test_count',
  'error_repetition',
  'recent_mode_switch',
] as const;
export const RiskSignalSchema = z.enum(RISK_SIGNALS);
export type RiskSignal = z.infer<typeof RiskSignalSchema>;

export const StagnationRiskSchema = z.object({
  /** The fired signals' weights summed, at most 1. */
  score: z.number().min(0).max(1),
  /** The signals that fired, each with its weight and what it saw. */
  contributions: z.array(
    z.object({ signal: RiskSignalSchema, weight: z.number().min(0), detail: z.string() }),
  ),
});
export type StagnationRisk = z.infer<typeof StagnationRiskSchema>;
export type Verdict = z.infer<typeof VerdictSchema>;
export type VerdictRule = z.infer<typeof VerdictRuleSchema>;
