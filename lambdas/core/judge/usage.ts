/** Tokens and cost of model calls, added up. */
import type { ModelUsage } from '../schemas/evaluation.js';
import { DEFAULT_PRICING, costUsd, type PricingTable } from './pricing.js';
import { roundTo } from '../shared/stats.js';

export const ZERO_USAGE: ModelUsage = { inputTokens: 0, outputTokens: 0, costUsd: 0 };

/** Tokens and cost of several calls together. */
export function sumUsage(usages: readonly ModelUsage[]): ModelUsage {
  return usages.reduce(
    (total, usage) => ({
      inputTokens: total.inputTokens + usage.inputTokens,
      outputTokens: total.outputTokens + usage.outputTokens,
      costUsd: roundTo(total.costUsd + usage.costUsd, 6),
    }),
    ZERO_USAGE,
  );
}

/** What a model call reports of itself: who answered, and the tokens it counted. */
export interface CallReport {
  model: string;
  usage: { inputTokens: number; outputTokens: number };
}

/** One call's tokens, priced by the model that answered (else the one asked). */
export function callUsage(
  response: CallReport,
  modelId: string,
  pricing: PricingTable = DEFAULT_PRICING,
): ModelUsage {
  return {
    ...response.usage,
    costUsd: costUsd(response.model || modelId, response.usage, pricing),
  };
}
