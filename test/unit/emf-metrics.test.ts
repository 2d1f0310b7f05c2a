import { describe, expect, it } from 'vitest';
import { EmfMetricsSink, METRICS_NAMESPACE } from '../../lambdas/adapters/emf-metrics.js';
import { iterationMetrics, runMetrics } from '../../lambdas/core/observability/loop-metrics.js';
import { METRIC_NAMES, METRICS } from '../../lambdas/core/schemas/metric-catalogue.js';
import { makeGate, makeIteration, makeRun } from '../support/records.js';

/** The EMF documents a sink wrote, parsed. */
function captured() {
  const lines: string[] = [];
  const sink = new EmfMetricsSink({
    service: 'RalphCloud-test',
    write: (line) => lines.push(line),
  });
  const documents = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { sink, documents };
}

const recorded = makeIteration({
  iteration: 4,
  status: 'recorded',
  outcome: 'passed',
  gates: [makeGate({ passed: true }), makeGate({ name: 'test', passed: false, blocking: false })],
  durations: { agentMs: 1200, gatesMs: 300, runnerMs: 50 },
  learning: { category: 'feature', control: false, injected: [{ kind: 'rule', id: 'r-1' }] },
});

describe('EMF metrics', () => {
  it("parses as CloudWatch EMF: namespace, the service and project dimensions, the catalogue's units", () => {
    // Prepare
    const { sink, documents } = captured();

    // Act
    sink.publish(iterationMetrics(recorded), { projectId: 'shop', runId: 'run-1', iteration: 4 });

    // Assess
    const [document] = documents();
    const aws = document?._aws as {
      Timestamp: number;
      CloudWatchMetrics: {
        Namespace: string;
        Dimensions: string[][];
        Metrics: { Name: string; Unit: string }[];
      }[];
    };
    const [directive] = aws.CloudWatchMetrics;
    expect(directive?.Namespace).toBe(METRICS_NAMESPACE);
    expect(directive?.Dimensions[0]?.sort()).toEqual(['project', 'service']);
    // Again by the service alone: what the alarms watch, summed over projects.
    expect(directive?.Dimensions[1]).toEqual(['service']);
    expect(document).toMatchObject({
      service: 'RalphCloud-test',
      project: 'shop',
      runId: 'run-1',
      iteration: '4',
      IterationsRecorded: 1,
      IterationsPassed: 1,
      GatePassRate: 50,
      AgentDuration: 1200,
      GateDuration: 300,
      InjectedLearnings: 1,
    });
    for (const metric of directive?.Metrics ?? []) {
      expect(METRIC_NAMES).toContain(metric.Name);
      const unit = METRICS[metric.Name as keyof typeof METRICS].unit;
      expect(metric.Unit).toBe(unit === 'None' ? 'None' : unit);
    }
    expect(document).not.toHaveProperty('JudgeScore');
  });

  it("gives a run's end its status as a property, never a dimension", () => {
    const { sink, documents } = captured();
    const run = makeRun({ status: 'aborted', iterationsCompleted: 5, storiesPassed: 2 });
    sink.publish(runMetrics(run, [recorded]), {
      projectId: 'shop',
      runId: run.runId,
      properties: { status: run.status },
    });
    const [document] = documents();
    expect(document).toMatchObject({
      RunsEnded: 1,
      RunsAborted: 1,
      RunIterations: 5,
      StoriesPassed: 2,
      status: 'aborted',
    });
    const aws = document?._aws as { CloudWatchMetrics: { Dimensions: string[][] }[] };
    expect(aws.CloudWatchMetrics[0]?.Dimensions[0]).not.toContain('status');
  });

  it('sends each model of the receipt as its own document, with model as a third dimension', () => {
    // Prepare
    const { sink, documents } = captured();
    const line = (role: 'agent' | 'judge', model: string, costUsd: number) => ({
      role,
      model,
      inputTokens: 1000,
      outputTokens: 100,
      cacheReadTokens: 500,
      cacheWriteTokens: 0,
      calls: 1,
      costUsd,
      source: 'priced' as const,
    });
    const withReceipt = {
      ...recorded,
      receipt: {
        iteration: 4,
        taskId: 'US-001',
        lines: [
          line('agent', 'claude-sonnet-4-6-20260101', 0.2),
          line('judge', 'claude-sonnet-4-6', 0.1),
          line('agent', 'claude-haiku-4-5', 0.01),
        ],
        totalUsd: 0.31,
        gates: [],
        pricesAsOf: '2026-11-23',
      },
    };

    // Act
    sink.publish(iterationMetrics(withReceipt), { projectId: 'shop', runId: 'run-1' });

    // Assess
    const [base, ...models] = documents();
    expect(base).toMatchObject({ IterationCost: 0.31 });
    expect(base).not.toHaveProperty('model');
    expect(models).toHaveLength(2);
    expect(models[0]).toMatchObject({
      project: 'shop',
      model: 'claude-sonnet-4-6',
      ModelInputTokens: 3000,
      ModelOutputTokens: 200,
      ModelCost: 0.3,
    });
    expect(models[1]).toMatchObject({ model: 'claude-haiku-4-5', ModelCost: 0.01 });
    const aws = models[0]?._aws as { CloudWatchMetrics: { Dimensions: string[][] }[] };
    expect(aws.CloudWatchMetrics[0]?.Dimensions.map((set) => set.sort())).toEqual([
      ['model', 'project', 'service'],
    ]);
  });

  it("gives a run's cost from its receipts, and counts a budget stop", () => {
    // Prepare
    const { sink, documents } = captured();
    const run = makeRun({
      status: 'aborted',
      storiesPassed: 2,
      stopReason: 'cost budget reached: $1.20 of $1.00 (limits.maxCostUsd); 2 of 3 stories pass',
    });
    const receipt = (iteration: number, costUsd: number) => ({
      iteration,
      taskId: 'US-001',
      lines: [
        {
          role: 'agent' as const,
          model: 'claude-sonnet-4-6',
          inputTokens: 1,
          outputTokens: 1,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
          calls: 1,
          costUsd,
          source: 'reported' as const,
        },
      ],
      totalUsd: costUsd,
      gates: [],
      pricesAsOf: '2026-11-23',
    });

    // Act
    sink.publish(
      runMetrics(run, [
        { ...recorded, iteration: 1, receipt: receipt(1, 0.5) },
        { ...recorded, iteration: 2, receipt: receipt(2, 0.7) },
      ]),
      { projectId: 'shop', runId: run.runId },
    );

    // Assess
    expect(documents()[0]).toMatchObject({ RunCost: 1.2, CostPerPassedStory: 0.6, BudgetStops: 1 });
  });

  it('writes nothing for no values', () => {
    const { sink, documents } = captured();
    sink.publish([], { projectId: 'shop', runId: 'run-1' });
    expect(documents()).toEqual([]);
  });
});
