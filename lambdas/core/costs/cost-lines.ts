/**
 * Receipt lines: what one role's model use cost. An agent's own figure is taken as it
 * reports it (`reported`); everything else is tokens × the run's price table (`priced`).
 */
import { costUsd, type PricingTable } from '../judge/pricing.js';
import type { AgentSessionUsage, CostLine, CostRole } from '../schemas/cost-receipt.js';
import { roundTo } from '../shared/stats.js';

/**
 * The agent session's lines, one per model. A model without its own figure is priced; a
 * session of one model that gives only a total is that model's figure. Cache tokens are
 * priced as input (a priced line over-states rather than hides).
 *
 * @example
 * agentCostLines({ models: [{ model: 'claude-sonnet-4-6', inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0.4 }] }, table);
 * // [{ role: 'agent', model: 'claude-sonnet-4-6', ..., costUsd: 0.4, source: 'reported' }]
 */
export function agentCostLines(usage: AgentSessionUsage, table: PricingTable): CostLine[] {
  const [only] = usage.models;
  const totalIsTheModel = usage.models.length === 1 && only?.costUsd === undefined;
  return usage.models.map((model) => {
    const reported = model.costUsd ?? (totalIsTheModel ? usage.totalCostUsd : undefined);
    const tokens = {
      inputTokens: model.inputTokens + model.cacheReadTokens + model.cacheWriteTokens,
      outputTokens: model.outputTokens,
    };
    return {
      role: 'agent',
      model: model.model,
      inputTokens: model.inputTokens,
      outputTokens: model.outputTokens,
      cacheReadTokens: model.cacheReadTokens,
      cacheWriteTokens: model.cacheWriteTokens,
      calls: 1,
      costUsd: reported === undefined ? costUsd(model.model, tokens, table) : roundTo(reported, 6),
      source: reported === undefined ? 'priced' : 'reported',
    };
  });
}

/** A model's calls for one role, as the API counted them. */
export interface ModelCalls {
  model: string;
  inputTokens: number;
  outputTokens: number;
  calls: number;
}

/**
 * One role's calls priced by the table; nothing when no call was made.
 *
 * @example
 * pricedLine('judge', { model: 'claude-sonnet-4-6', inputTokens: 2000, outputTokens: 400, calls: 2 }, table);
 * // [{ role: 'judge', ..., calls: 2, costUsd: 0.012, source: 'priced' }]
 */
export function pricedLine(role: CostRole, usage: ModelCalls, table: PricingTable): CostLine[] {
  if (usage.calls === 0 && usage.inputTokens === 0 && usage.outputTokens === 0) return [];
  return [
    {
      role,
      model: usage.model,
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      calls: Math.max(1, usage.calls),
      costUsd: costUsd(usage.model, usage, table),
      source: 'priced',
    },
  ];
}
