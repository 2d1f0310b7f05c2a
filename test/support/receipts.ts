/** Cost receipts for tests, parsed with the real schema (its defaults filled in). */
import {
  CostReceiptSchema,
  type CostLine,
  type CostReceipt,
} from '../../lambdas/core/schemas/cost-receipt.js';

type LineInput = Pick<CostLine, 'role' | 'model' | 'inputTokens' | 'outputTokens' | 'costUsd'>;

/** A receipt of `lines` (priced), its total their sum. */
export function makeReceipt(iteration: number, taskId: string, lines: LineInput[]): CostReceipt {
  const total = lines.reduce((sum, line) => sum + line.costUsd, 0);
  return CostReceiptSchema.parse({
    iteration,
    taskId,
    lines: lines.map((line) => ({ ...line, source: 'priced' })),
    totalUsd: Math.round(total * 1e6) / 1e6,
    pricesAsOf: '2026-11-01',
  });
}
