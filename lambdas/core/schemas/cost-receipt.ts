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
