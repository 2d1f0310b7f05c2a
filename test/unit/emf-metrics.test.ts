import { describe, expect, it } from 'vitest';
import { EmfMetricsSink, METRICS_NAMESPACE } from '../../lambdas/adapters/emf-metrics.js';
import { iterationMetrics, runMetrics } from '../../lambdas/core/observability/loop-metrics.js';
import { METRIC_NAMES, METRICS } from '../../lambdas/core/observability/metric-catalogue.js';
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

  it('writes nothing for no values', () => {
    const { sink, documents } = captured();
    sink.publish([], { projectId: 'shop', runId: 'run-1' });
    expect(documents()).toEqual([]);
  });
});
