import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { METRICS_NAMESPACE } from '../../lambdas/adapters/emf-metrics.js';
import { AlarmTopic } from '../../lib/alarm-topic.js';
import { LoopAlarms } from '../../lib/loop-alarms.js';
import { cdkJsonContext } from '../../lib/ralph-app.js';
import { nagErrors } from '../support/nag.js';

const SERVICE = 'ralph-cloud';

/** What an alarm watches and when it fires, as the template says it. */
function alarmsOf(template: Template): Record<string, unknown>[] {
  return Object.values(template.findResources('AWS::CloudWatch::Alarm')).map(
    (alarm) => alarm.Properties as Record<string, unknown>,
  );
}

describe('Class: LoopAlarms', () => {
  let withBudget: Stack;
  let withoutBudget: Template;
  let budgeted: Template;
  let topicRef: { Ref: string };

  beforeAll(() => {
    const app = new App({ context: cdkJsonContext() });
    withBudget = new Stack(app, 'BudgetedAlarmsTest');
    const topic = new AlarmTopic(withBudget, 'Alarms');
    new LoopAlarms(withBudget, 'LoopAlarms', {
      service: SERVICE,
      actions: [topic.action],
      budgetAlarmUsd: 7.5,
    });
    const plain = new Stack(app, 'AlarmsTest');
    new LoopAlarms(plain, 'LoopAlarms', { service: SERVICE, actions: [] });
    budgeted = Template.fromStack(withBudget);
    withoutBudget = Template.fromStack(plain);
    topicRef = { Ref: withBudget.getLogicalId(topic.topic.node.defaultChild as never) };
  });

  it('alarms on aborted runs, an unreliable judge, divergence and a run over budget, to the topic', () => {
    // Act
    const alarms = alarmsOf(budgeted).map((alarm) => ({
      metric: alarm.MetricName,
      statistic: alarm.Statistic,
      threshold: alarm.Threshold,
      comparison: alarm.ComparisonOperator,
      actions: alarm.AlarmActions,
    }));

    // Assess
    const atLeastOne = { threshold: 1, comparison: 'GreaterThanOrEqualToThreshold' };
    expect(alarms).toEqual([
      { metric: 'RunsAborted', statistic: 'Sum', ...atLeastOne, actions: [topicRef] },
      { metric: 'JudgeUnreliable', statistic: 'Sum', ...atLeastOne, actions: [topicRef] },
      { metric: 'Divergences', statistic: 'Sum', ...atLeastOne, actions: [topicRef] },
      {
        metric: 'RunCost',
        statistic: 'Maximum',
        threshold: 7.5,
        comparison: 'GreaterThanThreshold',
        actions: [topicRef],
      },
    ]);
  });

  it('watches every project at once: the RalphCloud metrics with the service dimension alone', () => {
    // Assess
    for (const alarm of alarmsOf(budgeted)) {
      expect(alarm).toMatchObject({
        Namespace: METRICS_NAMESPACE,
        Dimensions: [{ Name: 'service', Value: SERVICE }],
        Period: 300,
        EvaluationPeriods: 1,
        TreatMissingData: 'notBreaching',
      });
    }
  });

  it('has no cost alarm when no budget is given', () => {
    // Act
    const metrics = alarmsOf(withoutBudget).map((alarm) => alarm.MetricName);

    // Assess
    expect(metrics).toEqual(['RunsAborted', 'JudgeUnreliable', 'Divergences']);
  });

  it.each([0, -3, Number.NaN, Number.POSITIVE_INFINITY])('refuses a budget of %s', (budget) => {
    // Prepare
    const stack = new Stack(new App(), 'BadBudget');

    // Act
    const act = () =>
      new LoopAlarms(stack, 'LoopAlarms', {
        service: SERVICE,
        actions: [],
        budgetAlarmUsd: budget,
      });

    // Assess
    expect(act).toThrow(/budgetAlarmUsd must be a positive number of US dollars/);
  });

  it('leaves no unacknowledged cdk-nag AwsSolutions errors', () => {
    expect(nagErrors(withBudget)).toEqual([]);
  });
});
