/**
 * The cost budgets a run is held to: `limits.maxCostUsd` against the sum of its receipts,
 * and `limits.maxCostUsdPerProjectDay` against what the project's runs spent today (UTC).
 * Checked at every step that decides what comes next, so a run stops at the step after its
 * receipts pass a budget (an iteration under way is never cut short).
 */
import type { RunRecord } from '../schemas/run.js';

/** How a budget's stop reason begins: the run-end metrics count these stops. */
export const BUDGET_STOP_PREFIX = 'cost budget reached';

/** What the project's runs spent today, when a per-day budget is set and it was read. */
export interface ProjectDaySpend {
  /** The day (YYYY-MM-DD, UTC). */
  day: string;
  usd: number;
}

const usd = (value: number) => `$${value.toFixed(value < 1 ? 4 : 2)}`;

/**
 * The stop reason when a budget is reached, else `undefined`.
 *
 * @example
 * budgetStopReason({ costUsd: 1.23, config: { limits: { maxCostUsd: 1 } } });
 * // 'cost budget reached: $1.23 of $1.00 (limits.maxCostUsd)'
 */
export function budgetStopReason(
  run: Pick<RunRecord, 'costUsd'> & { config: { limits: RunRecord['config']['limits'] } },
  today?: ProjectDaySpend,
): string | undefined {
  const { maxCostUsd, maxCostUsdPerProjectDay } = run.config.limits;
  if (maxCostUsd !== undefined && run.costUsd >= maxCostUsd)
    return `${BUDGET_STOP_PREFIX}: ${usd(run.costUsd)} of ${usd(maxCostUsd)} (limits.maxCostUsd)`;
  if (maxCostUsdPerProjectDay !== undefined && today && today.usd >= maxCostUsdPerProjectDay)
    return `${BUDGET_STOP_PREFIX}: the project spent ${usd(today.usd)} on ${today.day} of ${usd(maxCostUsdPerProjectDay)} a day (limits.maxCostUsdPerProjectDay)`;
  return undefined;
}

/** Whether a run's stop reason is a budget's. */
export function isBudgetStop(stopReason: string | undefined): boolean {
  return stopReason?.startsWith(BUDGET_STOP_PREFIX) ?? false;
}
