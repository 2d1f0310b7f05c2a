/**
 * An iteration's cost receipt: the evaluation's lines (judge, proposer), written when
 * analyze-gap records its summary, and the agent's lines, gates and reason added when the
 * runner's result is recorded. Either write keeps the other's lines, so the order does not
 * matter and a retried write builds the same receipt.
 */
import type { PricingTable } from '../judge/pricing.js';
import type { CostLine, CostReceipt } from '../schemas/cost-receipt.js';
import type { IterationRecord } from '../schemas/iteration.js';
import type { IterationResult } from '../schemas/iteration-result.js';
import type { RunRecord } from '../schemas/run.js';
import { roundTo } from '../shared/stats.js';
import { agentCostLines } from './cost-lines.js';

/** The lines' sum, rounded to a millionth of a dollar. */
export function linesTotal(lines: readonly CostLine[]): number {
  return roundTo(
    lines.reduce((sum, line) => sum + line.costUsd, 0),
    6,
  );
}

/**
 * The record's receipt with `role`s lines replaced by `lines` (the other roles' kept).
 *
 * @example
 * receiptWith(record, ['judge', 'proposer'], [judgeLine], table).lines; // [...agent lines, judgeLine]
 */
export function receiptWith(
  record: Pick<IterationRecord, 'iteration' | 'taskId' | 'receipt'>,
  roles: readonly CostLine['role'][],
  lines: readonly CostLine[],
  table: PricingTable,
  extra: Partial<Pick<CostReceipt, 'gates' | 'reason'>> = {},
): CostReceipt {
  const kept = (record.receipt?.lines ?? []).filter((line) => !roles.includes(line.role));
  const all = [...kept, ...lines].sort(
    (a, b) => ROLE_ORDER.indexOf(a.role) - ROLE_ORDER.indexOf(b.role),
  );
  const reason = extra.reason ?? record.receipt?.reason;
  return {
    iteration: record.iteration,
    taskId: record.taskId,
    lines: all,
    totalUsd: linesTotal(all),
    gates: extra.gates ?? record.receipt?.gates ?? [],
    ...(reason === undefined ? {} : { reason }),
    pricesAsOf: table.asOf,
  };
}

const ROLE_ORDER: readonly CostLine['role'][] = ['agent', 'judge', 'proposer'];

/**
 * The receipt once the runner's result is recorded: the agent's lines (none when the agent
 * reported no usage), the gates, and why the task ran again.
 */
export function recordedReceipt(
  run: RunRecord,
  record: IterationRecord,
  result: IterationResult,
  table: PricingTable,
): CostReceipt {
  const reason = rerunReason(run, record);
  return receiptWith(
    record,
    ['agent'],
    result.agentUsage ? agentCostLines(result.agentUsage, table) : [],
    table,
    {
      gates: result.gates.map(({ name, passed }) => ({ name, passed })),
      ...(reason === undefined ? {} : { reason }),
    },
  );
}

/**
 * Why this iteration's task ran again, from the run as it stood before it was counted: a
 * reset to a checkpoint (recovery), else a retry after the task's last failure; nothing on
 * a first attempt.
 *
 * @example
 * rerunReason(run, { iteration: 3, attempt: 2, taskId: 'US-001', ... });
 * // 'retry after iteration 2 (gates_failed): typecheck failed'
 */
export function rerunReason(
  run: Pick<RunRecord, 'control' | 'lastFailure' | 'lastRecordedIteration'>,
  record: Pick<IterationRecord, 'iteration' | 'attempt' | 'taskId'>,
): string | undefined {
  const reset = run.control?.reset;
  if (reset && reset.after === run.lastRecordedIteration && reset.after < record.iteration)
    return `recovery: reset to ${reset.checkpoint.tag} (${reset.reason})`;
  if (record.attempt <= 1) return undefined;
  const failure = run.lastFailure;
  if (failure && failure.taskId === record.taskId && failure.iteration < record.iteration)
    return `retry after iteration ${failure.iteration} (${failure.outcome}): ${failure.summary}`;
  return `attempt ${record.attempt} at ${record.taskId}`;
}
