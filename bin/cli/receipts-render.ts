/**
 * The cost receipts of `ralph show`: one row per line of each iteration's receipt (who
 * called which model, the tokens, the cost and whether the agent reported it or the price
 * table priced it), the reasons a task ran again, and the run's sum against its budgets.
 */
import Table from 'cli-table3';
import type { CostReceipt } from '../../lambdas/core/schemas/cost-receipt.js';
import type { IterationRecord } from '../../lambdas/core/schemas/iteration.js';
import type { RunRecord } from '../../lambdas/core/schemas/run.js';
import { tableStyle } from './table-style.js';
import { terminalSafe } from './terminal-text.js';

const tokens = new Intl.NumberFormat('en-US');

/** USD to a hundredth of a cent: receipts are often a few cents. */
export const usd = (value: number): string => `$${value.toFixed(4)}`;

/** The receipts of the iterations that have one, in iteration order. */
export function receiptsOf(iterations: readonly IterationRecord[]): CostReceipt[] {
  return iterations.flatMap((iteration) => (iteration.receipt ? [iteration.receipt] : []));
}

/**
 * The receipts table and the run's sum; undefined when no iteration has a receipt yet.
 *
 * @example
 * runReceipts(run, iterations);
 * // 'cost receipts (prices as of 2026-11-23)\n┌───┬─────┬…\nrun cost  $0.1042 …'
 */
export function runReceipts(
  run: Pick<RunRecord, 'costUsd' | 'config'>,
  iterations: readonly IterationRecord[],
): string | undefined {
  const table = receiptsTable(iterations);
  const receipts = receiptsOf(iterations);
  if (!table || receipts.every((receipt) => receipt.lines.length === 0)) return table;
  return `${table}\n${runCostLine(run, receipts.length)}`;
}

/** One iteration's receipt and its total, for `show --iteration N`. */
export function iterationReceipt(iteration: IterationRecord): string | undefined {
  const table = receiptsTable([iteration]);
  return table && `${table}\niteration cost  ${usd(iteration.receipt?.totalUsd ?? 0)}`;
}

/** The receipts' lines, a row each, and the reasons tasks ran again. */
function receiptsTable(iterations: readonly IterationRecord[]): string | undefined {
  const receipts = receiptsOf(iterations);
  if (receipts.length === 0) return undefined;
  if (receipts.every((receipt) => receipt.lines.length === 0))
    return `cost receipts  no usage reported in ${receipts.length} iteration${receipts.length === 1 ? '' : 's'} (the agent printed no stream-json result, and nothing was judged)`;
  const table = new Table({
    head: ['#', 'task', 'model', 'role', 'tokens in', 'tokens out', 'cost', 'source'],
    style: tableStyle(),
  });
  for (const receipt of receipts) {
    if (receipt.lines.length === 0)
      table.push([
        String(receipt.iteration),
        terminalSafe(receipt.taskId),
        '—',
        'agent',
        '—',
        '—',
        '—',
        'not reported',
      ]);
    for (const line of receipt.lines)
      table.push([
        String(receipt.iteration),
        terminalSafe(receipt.taskId),
        terminalSafe(line.model),
        line.calls > 1 ? `${line.role} ×${line.calls}` : line.role,
        tokens.format(line.inputTokens + line.cacheReadTokens + line.cacheWriteTokens),
        tokens.format(line.outputTokens),
        usd(line.costUsd),
        line.source,
      ]);
  }
  const dates = [...new Set(receipts.map((receipt) => receipt.pricesAsOf))].join(', ');
  const reasons = receipts.flatMap((receipt) =>
    receipt.reason ? [`#${receipt.iteration} ran again: ${terminalSafe(receipt.reason)}`] : [],
  );
  return [`cost receipts (prices as of ${dates})`, table.toString(), ...reasons].join('\n');
}

/** `run cost  $0.1042 over 2 receipts (limits.maxCostUsd $1.0000)`. */
function runCostLine(run: Pick<RunRecord, 'costUsd' | 'config'>, count: number): string {
  return `run cost  ${usd(run.costUsd)} over ${count} receipt${count === 1 ? '' : 's'}${budgetsText(run)}`;
}

/** The run's sum and its budgets (`ralph status`): `$0.1042 (limits.maxCostUsd $1.0000)`. */
export function runCostText(run: Pick<RunRecord, 'costUsd' | 'config'>): string {
  return `${usd(run.costUsd)}${budgetsText(run)}`;
}

/** ` (limits.maxCostUsd $1.0000, ...)`, or nothing without a budget. */
function budgetsText(run: Pick<RunRecord, 'config'>): string {
  const { maxCostUsd, maxCostUsdPerProjectDay } = run.config.limits;
  const budgets = [
    ...(maxCostUsd === undefined ? [] : [`limits.maxCostUsd ${usd(maxCostUsd)}`]),
    ...(maxCostUsdPerProjectDay === undefined
      ? []
      : [`limits.maxCostUsdPerProjectDay ${usd(maxCostUsdPerProjectDay)}`]),
  ];
  return budgets.length > 0 ? ` (${budgets.join(', ')})` : '';
}
