/**
 * What each chart of DASHBOARD_SECTIONS draws, from runs' samples (run-points.ts): for one
 * run, x is the iteration number; across runs (a project, every run), x is the time a
 * sample was measured, one series per metric (per model and metric on `byModel` charts).
 * Values that meet at one x are combined by the chart's statistic, as CloudWatch does
 * within a period. The shape is uPlot's: one x array and a value (or null) per x per series.
 */
import {
  DASHBOARD_SECTIONS,
  type ChartSpec,
  type ChartStat,
  type ChartThreshold,
} from '../../../lambdas/core/observability/dashboard-layout.js';
import type { MetricName } from '../../../lambdas/core/schemas/metric-catalogue.js';
import type { RunSample } from './run-points.js';

/** `iteration`: x is the iteration number; `time`: seconds since the epoch. */
export type ChartAxis = 'iteration' | 'time';

export interface ChartSeriesKey {
  label: string;
  metric: MetricName;
  model?: string;
}

export interface ChartData {
  id: string;
  title: string;
  section: string;
  stat: ChartStat;
  thresholds: readonly ChartThreshold[];
  stacked: boolean;
  axis: ChartAxis;
  x: number[];
  series: ChartSeriesKey[];
  /** One array per series, aligned with `x`; null where the series has no value there. */
  values: (number | null)[][];
}

/** Every chart of the layout, in order, over `samples`. */
export function dashboardCharts(samples: readonly RunSample[], axis: ChartAxis): ChartData[] {
  const placed = samples.flatMap((sample) => {
    const x = axis === 'iteration' ? sample.iteration : secondsOf(sample.at);
    return x === undefined ? [] : [{ x, points: sample.points }];
  });
  return DASHBOARD_SECTIONS.flatMap((section) =>
    section.charts.map((spec) => chartData(spec, section.title, placed, axis)),
  );
}

function chartData(
  spec: ChartSpec,
  section: string,
  placed: readonly { x: number; points: RunSample['points'] }[],
  axis: ChartAxis,
): ChartData {
  const series = seriesOf(spec, placed);
  const valuesAt = new Map<number, number[][]>();
  for (const { x, points } of placed)
    for (const point of points) {
      const index = series.findIndex(
        (key) => key.metric === point.name && key.model === point.model,
      );
      if (index < 0) continue;
      const atX = valuesAt.get(x) ?? series.map(() => []);
      atX[index]!.push(point.value);
      valuesAt.set(x, atX);
    }
  const x = [...valuesAt.keys()].sort((a, b) => a - b);
  return {
    id: spec.id,
    title: spec.title,
    section,
    stat: spec.stat,
    thresholds: spec.thresholds ?? [],
    stacked: spec.stacked ?? false,
    axis,
    x,
    series,
    values: series.map((_, index) => x.map((at) => combine(valuesAt.get(at)![index]!, spec.stat))),
  };
}

/** The chart's series: one per metric, or one per model and metric on a `byModel` chart. */
function seriesOf(
  spec: ChartSpec,
  placed: readonly { points: RunSample['points'] }[],
): ChartSeriesKey[] {
  if (!spec.byModel) return spec.metrics.map((metric) => ({ label: metric, metric }));
  const models = new Set<string>();
  for (const { points } of placed)
    for (const point of points)
      if (point.model !== undefined && spec.metrics.includes(point.name)) models.add(point.model);
  return [...models].sort().flatMap((model) =>
    spec.metrics.map((metric) => ({
      label: spec.metrics.length === 1 ? model : `${model} ${metric}`,
      metric,
      model,
    })),
  );
}

function combine(values: readonly number[], stat: ChartStat): number | null {
  if (values.length === 0) return null;
  const sum = values.reduce((total, value) => total + value, 0);
  if (stat === 'Sum') return sum;
  if (stat === 'Maximum') return Math.max(...values);
  return sum / values.length;
}

function secondsOf(at: string | undefined): number | undefined {
  const ms = at === undefined ? NaN : Date.parse(at);
  return Number.isNaN(ms) ? undefined : ms / 1000;
}
