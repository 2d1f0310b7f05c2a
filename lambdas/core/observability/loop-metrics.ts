/**
 * The values a recorded iteration and an ended run give the catalogued metrics. A value the
 * record does not have (no evaluation, no gates) is left out rather than sent as zero, so a
 * dashboard's average is over what was measured.
 */
import { isBudgetStop } from '../costs/budget.js';
import { linesTotal } from '../costs/receipt.js';
import { effectReport, taskEffects } from '../learning/effect-report.js';
import { normalizeModelId } from '../judge/pricing.js';
import type { CostReceipt } from '../schemas/cost-receipt.js';
import { STAGNATION_LEVELS } from '../schemas/control-decisions.js';
import type { IterationRecord } from '../schemas/iteration.js';
import type { RunRecord } from '../schemas/run.js';
import type { MetricName, MetricPoint } from '../schemas/metric-catalogue.js';

/**
 * `storiesComplete`: the run's stories passed once this iteration is recorded.
 *
 * @example
 * iterationMetrics(record, 2); // [{ name: 'IterationsRecorded', value: 1 }, { name: 'IterationsPassed', value: 1 }, ...]
 */
export function iterationMetrics(record: IterationRecord, storiesComplete?: number): MetricPoint[] {
  const points: MetricPoint[] = [];
  const add = (name: MetricName, value: number | null | undefined) => {
    if (value !== undefined && value !== null && Number.isFinite(value))
      points.push({ name, value });
  };
  const passed = record.outcome === 'passed';
  add('IterationsRecorded', 1);
  add(passed ? 'IterationsPassed' : 'IterationsFailed', 1);
  if (record.gates.length > 0)
    add(
      'GatePassRate',
      (100 * record.gates.filter((gate) => gate.passed).length) / record.gates.length,
    );
  add('AgentDuration', record.durations?.agentMs);
  add('GateDuration', record.durations?.gatesMs);
  const evaluation = record.evaluation;
  if (evaluation) {
    add('JudgeScore', evaluation.expensiveAvg);
    add('CheapScore', evaluation.cheapAvg);
    add('Gap', evaluation.gap);
    add('MAE', evaluation.mae);
    add('Spearman', evaluation.spearman);
    add('QWK', evaluation.qwk);
    add('ActivePatterns', evaluation.activePatterns);
    add('ProvisionalPatterns', evaluation.provisionalPatterns);
    add('EvaluationCost', evaluation.costUsd);
    add('JudgeUnreliable', evaluation.judgeUnreliable ? 1 : 0);
    add('Divergences', evaluation.divergence.length);
  }
  if (record.control) {
    add('StagnationLevel', STAGNATION_LEVELS.indexOf(record.control.stagnation.level));
    add('SupervisorInterventions', record.control.verdict.verdict === 'PROCEED' ? 0 : 1);
  }
  add('StoriesComplete', storiesComplete);
  if (record.learning) {
    add('InjectedLearnings', record.learning.injected.length);
    if (record.learning.control) add('ControlIterations', 1);
  }
  if (record.receipt) {
    add('IterationCost', record.receipt.totalUsd);
    points.push(...modelMetrics(record.receipt));
  }
  return points;
}

/**
 * Tokens and cost per model of a receipt (the model as the API names it, so that a dated
 * snapshot id does not make a dimension of its own); input counts cache reads and writes.
 *
 * @example
 * modelMetrics(receipt); // [{ name: 'ModelInputTokens', value: 1200, model: 'claude-sonnet-4-6' }, ...]
 */
export function modelMetrics(receipt: CostReceipt): MetricPoint[] {
  const byModel = new Map<string, { input: number; output: number; usd: number }>();
  for (const line of receipt.lines) {
    const model = normalizeModelId(line.model);
    const sum = byModel.get(model) ?? { input: 0, output: 0, usd: 0 };
    sum.input += line.inputTokens + line.cacheReadTokens + line.cacheWriteTokens;
    sum.output += line.outputTokens;
    sum.usd += line.costUsd;
    byModel.set(model, sum);
  }
  return [...byModel].flatMap(([model, sum]): MetricPoint[] => [
    { name: 'ModelInputTokens', value: sum.input, model },
    { name: 'ModelOutputTokens', value: sum.output, model },
    { name: 'ModelCost', value: Math.round(sum.usd * 1e6) / 1e6, model },
  ]);
}

/**
 * @example
 * runMetrics(run, iterations); // [{ name: 'RunsEnded', value: 1 }, { name: 'RunIterations', value: 5 }, ...]
 */
export function runMetrics(run: RunRecord, iterations: readonly IterationRecord[]): MetricPoint[] {
  const points: MetricPoint[] = [
    { name: 'RunsEnded', value: 1 },
    { name: 'RunIterations', value: run.iterationsCompleted },
    { name: 'StoriesPassed', value: run.storiesPassed },
  ];
  if (run.status === 'aborted') points.push({ name: 'RunsAborted', value: 1 });
  const { injected, control } = effectReport(run.runId, taskEffects(run.runId, iterations)).groups;
  if (injected.meanIterationsToPass !== undefined)
    points.push({ name: 'InjectedIterationsToPass', value: injected.meanIterationsToPass });
  if (control.meanIterationsToPass !== undefined)
    points.push({ name: 'ControlIterationsToPass', value: control.meanIterationsToPass });
  // The receipts' sum: the agent's, the judge's and the proposer's (the run keeps it too).
  const cost = linesTotal(iterations.flatMap((record) => record.receipt?.lines ?? []));
  points.push({ name: 'RunCost', value: cost });
  if (cost > 0 && run.storiesPassed > 0)
    points.push({ name: 'CostPerPassedStory', value: cost / run.storiesPassed });
  if (isBudgetStop(run.stopReason)) points.push({ name: 'BudgetStops', value: 1 });
  return points;
}
