import { describe, expect, it } from 'vitest';
import { DASHBOARD_CHARTS } from '../../lambdas/core/observability/dashboard-layout.js';
import { iterationMetrics } from '../../lambdas/core/observability/loop-metrics.js';
import { dashboardCharts, type ChartData } from '../../bin/cli/dashboard/chart-data.js';
import { runSamples } from '../../bin/cli/dashboard/run-points.js';
import { viewOf } from '../../bin/cli/dashboard/dashboard-server.js';
import { dashboardPage } from '../../bin/cli/dashboard/page-html.js';
import type { DashboardData } from '../../bin/cli/dashboard/dashboard-data.js';
import { makeGate, makeIteration, makeRun } from '../support/records.js';
import { makeReceipt } from '../support/receipts.js';

const T0 = Date.parse('2026-11-27T10:00:00.000Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();

/** A recorded iteration of `runId` that ended `seconds` after T0. */
function recorded(
  runId: string,
  iteration: number,
  outcome: 'passed' | 'gates_failed',
  seconds: number,
  extra: Parameters<typeof makeIteration>[0] = {},
) {
  return makeIteration({
    runId,
    iteration,
    taskId: `US-00${iteration}`,
    status: 'recorded',
    outcome,
    endedAt: at(seconds),
    durations: { agentMs: 100 * iteration, gatesMs: 10 * iteration, runnerMs: 0 },
    gates: [makeGate({ name: 'test', passed: outcome === 'passed' })],
    ...extra,
  });
}

const chart = (charts: ChartData[], id: string) => {
  const found = charts.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no chart ${id}`);
  return found;
};
const series = (data: ChartData, label: string) =>
  data.values[data.series.findIndex((key) => key.label === label)];

describe('dashboard charts of one run (x: the iteration)', () => {
  const run = makeRun({ runId: 'run-1', status: 'running', storiesPassed: 2, storiesTotal: 3 });
  const iterations = [
    recorded('run-1', 1, 'passed', 10),
    recorded('run-1', 2, 'gates_failed', 20),
    recorded('run-1', 3, 'passed', 30),
    // Planned, not recorded yet: not drawn.
    makeIteration({ runId: 'run-1', iteration: 4, taskId: 'US-004' }),
  ];
  const charts = dashboardCharts(runSamples({ run, iterations }), 'iteration');

  it('gives every chart of the layout, in its order, with its title and thresholds', () => {
    expect(charts.map((data) => [data.id, data.title, data.thresholds])).toEqual(
      DASHBOARD_CHARTS.map((spec) => [spec.id, spec.title, spec.thresholds ?? []]),
    );
  });

  it('draws each recorded iteration once, at its number', () => {
    const outcomes = chart(charts, 'outcomes');
    expect(outcomes.x).toEqual([1, 2, 3]);
    expect(series(outcomes, 'IterationsPassed')).toEqual([1, null, 1]);
    expect(series(outcomes, 'IterationsFailed')).toEqual([null, 1, null]);
    expect(outcomes.stacked).toBe(true);
  });

  it('draws the values iterationMetrics gives each record', () => {
    const durations = chart(charts, 'durations');
    const emitted = iterations.slice(0, 3).map((record) => iterationMetrics(record));
    const valuesOf = (name: string) =>
      emitted.map((points) => points.find((point) => point.name === name)?.value ?? null);
    expect(series(durations, 'AgentDuration')).toEqual(valuesOf('AgentDuration'));
    expect(series(durations, 'GateDuration')).toEqual(valuesOf('GateDuration'));
    expect(series(chart(charts, 'gates'), 'GatePassRate')).toEqual([100, 0, 100]);
  });

  it("counts the stories passed after each iteration, ending at the run's count", () => {
    expect(series(chart(charts, 'stories'), 'StoriesComplete')).toEqual([1, 1, 2]);
    const begunWithOne = makeRun({ ...run, storiesPassed: 3 });
    const again = dashboardCharts(runSamples({ run: begunWithOne, iterations }), 'iteration');
    expect(series(chart(again, 'stories'), 'StoriesComplete')).toEqual([2, 2, 3]);
  });

  it('leaves a chart with nothing measured empty rather than drawing zeros', () => {
    const scores = chart(charts, 'scores');
    expect(scores.x).toEqual([]);
    expect(scores.values).toEqual([[], []]);
  });

  it("adds the run's own metrics only once it has ended", () => {
    expect(runSamples({ run, iterations })).toHaveLength(3);
    const paused = makeRun({ ...run, status: 'paused', endedAt: at(40) });
    expect(runSamples({ run: paused, iterations })).toHaveLength(3);
    const ended = makeRun({ ...run, status: 'completed', endedAt: at(40) });
    const samples = runSamples({ run: ended, iterations });
    expect(samples).toHaveLength(4);
    expect(samples.at(-1)).toMatchObject({ iteration: 3, at: at(40) });
    expect(samples.at(-1)?.points).toContainEqual({ name: 'RunIterations', value: 0 });
  });
});

describe('dashboard cost charts', () => {
  const run = makeRun({ runId: 'run-c', status: 'running' });
  const iterations = [
    recorded('run-c', 1, 'passed', 10, {
      receipt: makeReceipt(1, 'US-001', [
        { role: 'agent', model: 'sonnet', inputTokens: 1000, outputTokens: 200, costUsd: 0.02 },
        { role: 'judge', model: 'haiku', inputTokens: 300, outputTokens: 50, costUsd: 0.001 },
        { role: 'proposer', model: 'haiku', inputTokens: 100, outputTokens: 20, costUsd: 0.0005 },
      ]),
    }),
    recorded('run-c', 2, 'passed', 20, {
      receipt: makeReceipt(2, 'US-002', [
        { role: 'agent', model: 'sonnet', inputTokens: 2000, outputTokens: 400, costUsd: 0.04 },
      ]),
    }),
  ];
  const charts = dashboardCharts(runSamples({ run, iterations }), 'iteration');

  it("draws each receipt's total as the iteration's cost", () => {
    expect(series(chart(charts, 'iteration-cost'), 'IterationCost')).toEqual([0.0215, 0.04]);
  });

  it('draws one series per model, its lines summed', () => {
    const cost = chart(charts, 'model-cost');
    expect(cost.series.map((key) => key.label)).toEqual(['haiku', 'sonnet']);
    expect(series(cost, 'haiku')).toEqual([0.0015, null]);
    expect(series(cost, 'sonnet')).toEqual([0.02, 0.04]);
    const tokens = chart(charts, 'model-tokens');
    expect(tokens.series.map((key) => key.label)).toEqual([
      'haiku ModelInputTokens',
      'haiku ModelOutputTokens',
      'sonnet ModelInputTokens',
      'sonnet ModelOutputTokens',
    ]);
    expect(series(tokens, 'haiku ModelInputTokens')).toEqual([400, null]);
    expect(series(tokens, 'sonnet ModelOutputTokens')).toEqual([200, 400]);
  });
});

describe('dashboard charts across runs (x: the time)', () => {
  const first = makeRun({ runId: 'run-a', status: 'running' });
  const second = makeRun({ runId: 'run-b', status: 'running' });
  const charts = dashboardCharts(
    [
      ...runSamples({
        run: first,
        iterations: [recorded('run-a', 1, 'passed', 10), recorded('run-a', 2, 'passed', 30)],
      }),
      ...runSamples({
        run: second,
        iterations: [recorded('run-b', 1, 'gates_failed', 10), recorded('run-b', 2, 'passed', 30)],
      }),
    ],
    'time',
  );

  it('places each point at the second it was measured, one series per metric', () => {
    const outcomes = chart(charts, 'outcomes');
    expect(outcomes.axis).toBe('time');
    expect(outcomes.x).toEqual([T0 / 1000 + 10, T0 / 1000 + 30]);
    expect(outcomes.series.map((key) => key.label)).toEqual([
      'IterationsPassed',
      'IterationsFailed',
    ]);
  });

  it("combines values that meet at one time by the chart's statistic", () => {
    // Sum: both runs passed an iteration at +30 s.
    expect(series(chart(charts, 'outcomes'), 'IterationsPassed')).toEqual([1, 2]);
    // Average: gate pass rates of 100 and 0 at +10 s.
    expect(series(chart(charts, 'gates'), 'GatePassRate')).toEqual([50, 100]);
    // Maximum: each run's stories passed so far, the higher of the two.
    expect(series(chart(charts, 'stories'), 'StoriesComplete')).toEqual([1, 2]);
  });
});

describe('dashboard views and page', () => {
  it('reads the view from the query, refusing a run and a project at once', () => {
    expect(viewOf(new URLSearchParams(''))).toEqual({ kind: 'all' });
    expect(viewOf(new URLSearchParams('run=r1'))).toEqual({ kind: 'run', runId: 'r1' });
    expect(viewOf(new URLSearchParams('project=Demo'))).toEqual({
      kind: 'project',
      project: 'Demo',
    });
    expect(() => viewOf(new URLSearchParams('run=r1&project=Demo'))).toThrow(/not both/);
  });

  it('carries stored text in the page without ending its script or adding markup', () => {
    const data: DashboardData = {
      view: { kind: 'project', project: '</script><b>x' },
      title: 'project </script><b>x',
      live: false,
      runs: [],
      charts: [],
    };
    const page = dashboardPage({ data, status: 'ok' });
    expect(page).not.toContain('</script><b>');
    expect(page).toContain('ralph · project &lt;/script&gt;&lt;b&gt;x');
    expect(page).toContain('\\u003c/script>\\u003cb>x');
  });
});
