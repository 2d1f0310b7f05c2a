/**
 * What an iteration cost, line by line: the agent's session (its own figure when it reports
 * one, as Claude Code's stream-json `result` does), and the judge's and proposer's model
 * calls (priced from the API's usage). Kept on the iteration record; a run's cost is the sum
 * of its receipts, which is what a budget is held against.
 */
import { z } from 'zod';

const Tokens = z.number().int().nonnegative();

export const COST_ROLES = ['agent', 'judge', 'proposer'] as const;
export const CostRoleSchema = z.enum(COST_ROLES);
export type CostRole = z.infer<typeof CostRoleSchema>;

/** One model's part of an agent session, as the agent reported it (Claude Code's `modelUsage`). */
export const AgentModelUsageSchema = z.strictObject({
  model: z.string().min(1),
  /** Input tokens not read from or written to the prompt cache. */
  inputTokens: Tokens,
  outputTokens: Tokens,
  cacheReadTokens: Tokens.default(0),
  cacheWriteTokens: Tokens.default(0),
  /** The agent's own figure for this model, when it gives one. */
  costUsd: z.number().nonnegative().optional(),
});
export type AgentModelUsage = z.infer<typeof AgentModelUsageSchema>;

/** What an agent session reported it used (the runner's result.json carries it). */
export const AgentSessionUsageSchema = z.strictObject({
  /** Per model; one entry (model `unknown` when unnamed) when the agent gave only a total. */
  models: z.array(AgentModelUsageSchema).min(1),
  /** The session's own total (`total_cost_usd`), when it gives one. */
  totalCostUsd: z.number().nonnegative().optional(),
});
export type AgentSessionUsage = z.infer<typeof AgentSessionUsageSchema>;

export const CostLineSchema = z.strictObject({
  role: CostRoleSchema,
  /** The model id as reported (`unknown` when an agent reports usage but no model). */
  model: z.string().min(1),
  inputTokens: Tokens,
  outputTokens: Tokens,
  cacheReadTokens: Tokens.default(0),
  cacheWriteTokens: Tokens.default(0),
  /** Calls (or agent sessions) this line sums. */
  calls: z.number().int().positive().default(1),
  costUsd: z.number().nonnegative(),
  /** `reported`: the agent's own figure; `priced`: tokens × the price table. */
  source: z.enum(['reported', 'priced']),
});
export type CostLine = z.infer<typeof CostLineSchema>;

export const CostReceiptSchema = z.strictObject({
  iteration: z.number().int().positive(),
  taskId: z.string(),
  lines: z.array(CostLineSchema),
  /** The lines' sum, rounded to a millionth of a dollar. */
  totalUsd: z.number().nonnegative(),
  gates: z.array(z.strictObject({ name: z.string(), passed: z.boolean() })).default([]),
  /** Why the task ran again: a retry after a failure, or a recovery (absent: first attempt). */
  reason: z.string().optional(),
  /** The date of the price table the priced lines used (YYYY-MM-DD). */
  pricesAsOf: z.iso.date(),
});
export type CostReceipt = z.infer<typeof CostReceiptSchema>;
