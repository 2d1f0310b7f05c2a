import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';
import type { MetricName } from '../lambdas/core/schemas/metric-catalogue.js';
import { loopMetric } from './loop-metric.js';

/**
 * Properties of {@link LoopAlarms}.
 */
export interface LoopAlarmsProps {
  /** The `service` dimension the steps publish their metrics under (their service name). */
  readonly service: string;

  /** What an alarm does when it fires (notify the alarm topic). */
  readonly actions: readonly cloudwatch.IAlarmAction[];

  /**
   * Alarm when one run costs more than this many US dollars (the sum of its receipts).
   *
   * @default - no cost alarm: no budget suits every project
   */
  readonly budgetAlarmUsd?: number;
}

interface LoopAlarmRule {
  readonly id: string;
  readonly metric: MetricName;
  readonly statistic: 'Sum' | 'Maximum';
  readonly threshold: number;
  readonly comparison: cloudwatch.ComparisonOperator;
  readonly description: string;
}

const AT_LEAST = cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD;

/** What is wrong with the loop itself, whatever the project: any one occurrence alarms. */
const LOOP_ALARM_RULES: readonly LoopAlarmRule[] = [
  {
    id: 'RunsAborted',
    metric: 'RunsAborted',
    statistic: 'Sum',
    threshold: 1,
    comparison: AT_LEAST,
    description: 'A run was aborted by the supervisor or a limit in the last 5 minutes',
  },
  {
    id: 'JudgeUnreliable',
    metric: 'JudgeUnreliable',
    statistic: 'Sum',
    threshold: 1,
    comparison: AT_LEAST,
    description: 'The judge disagreed with itself on an iteration in the last 5 minutes',
  },
  {
    id: 'Divergence',
    metric: 'Divergences',
    statistic: 'Sum',
    threshold: 1,
    comparison: AT_LEAST,
    description: 'The judge and the cheap mode diverged on an iteration in the last 5 minutes',
  },
];

/**
 * Alarms on the loop's own metrics: runs aborted, an unreliable judge, the two evaluation
 * modes diverging and, when a budget is given, a run costing more than it.
 *
 * They watch the metrics with the `service` dimension alone, the sum over every project:
 * an alarm cannot use a search expression to find the projects, and one alarm per project
 * would need the projects known when the stack is built.
 */
export class LoopAlarms extends Construct {
  public readonly alarms: readonly cloudwatch.Alarm[];

  constructor(scope: Construct, id: string, props: LoopAlarmsProps) {
    super(scope, id);
    const budget = props.budgetAlarmUsd;
    if (budget !== undefined && !(Number.isFinite(budget) && budget > 0))
      throw new Error(
        `LoopAlarms: budgetAlarmUsd must be a positive number of US dollars, not ${budget}; leave it out for no cost alarm`,
      );
    const rules = budget === undefined ? LOOP_ALARM_RULES : [...LOOP_ALARM_RULES, costRule(budget)];
    this.alarms = rules.map((rule) => {
      const alarm = new cloudwatch.Alarm(this, `${rule.id}Alarm`, {
        metric: loopMetric(rule.metric, { service: props.service }, rule.statistic),
        threshold: rule.threshold,
        comparisonOperator: rule.comparison,
        evaluationPeriods: 1,
        // No value is no event: a quiet loop is a healthy one.
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        alarmDescription: rule.description,
      });
      alarm.addAlarmAction(...props.actions);
      return alarm;
    });
  }
}

/** The dearest run that ended in a period, against the budget. */
function costRule(budgetUsd: number): LoopAlarmRule {
  return {
    id: 'RunCost',
    metric: 'RunCost',
    statistic: 'Maximum',
    threshold: budgetUsd,
    comparison: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
    description: `A run that ended in the last 5 minutes cost more than the budget of ${budgetUsd} USD`,
  };
}
