/**
 * Metrics as CloudWatch Embedded Metric Format, through Powertools Metrics: each publish is
 * one EMF document (namespace, the dimension sets `service` + `project` and `service` alone,
 * the values with their catalogued units, the run id and iteration as properties), and one
 * more per model its values name (`level: 'model'` metrics), with `model` as a third
 * dimension. The document is handed to `write` rather than printed, so that a deployed
 * step's log carries it (stdout) and the local stack keeps it in a file instead of in the
 * CLI's output.
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import {
  METRICS,
  METRICS_NAMESPACE,
  type MetricPoint,
  type MetricUnitName,
} from '../core/schemas/metric-catalogue.js';
import type { MetricsContext, MetricsSink } from '../metrics-ports.js';

export { METRICS_NAMESPACE };

const UNITS: Readonly<Record<MetricUnitName, (typeof MetricUnit)[keyof typeof MetricUnit]>> = {
  Count: MetricUnit.Count,
  Milliseconds: MetricUnit.Milliseconds,
  Percent: MetricUnit.Percent,
  None: MetricUnit.NoUnit,
};

export interface EmfMetricsOptions {
  /** The `service` dimension: the functions' service name (POWERTOOLS_SERVICE_NAME). */
  service: string;
  namespace?: string;
  /** Where each EMF document (one JSON line) goes. */
  write: (line: string) => void;
}

export class EmfMetricsSink implements MetricsSink {
  constructor(private readonly options: EmfMetricsOptions) {}

  publish(points: readonly MetricPoint[], context: MetricsContext): void {
    const byModel = new Map<string | undefined, MetricPoint[]>();
    for (const point of points)
      byModel.set(point.model, [...(byModel.get(point.model) ?? []), point]);
    for (const [model, group] of byModel) this.#document(group, context, model);
  }

  /** One EMF document: the points of one model (or of none), on one line. */
  #document(points: readonly MetricPoint[], context: MetricsContext, model?: string): void {
    try {
      const metrics = new Metrics({
        namespace: this.options.namespace ?? METRICS_NAMESPACE,
        serviceName: this.options.service,
      });
      metrics.addDimension('project', context.projectId);
      if (model !== undefined) metrics.addDimension('model', model);
      // Again with the service alone, the sum over projects: alarms cannot search, so they
      // watch this set (a set of the default dimension only).
      else metrics.addDimensions({});
      metrics.addMetadata('runId', context.runId);
      if (context.iteration !== undefined)
        metrics.addMetadata('iteration', String(context.iteration));
      for (const [key, value] of Object.entries(context.properties ?? {}))
        metrics.addMetadata(key, value);
      for (const point of points)
        metrics.addMetric(point.name, UNITS[METRICS[point.name].unit], point.value);
      this.options.write(`${JSON.stringify(metrics.serializeMetrics())}\n`);
      metrics.clearMetrics();
    } catch {
      // Metrics are evidence, not the work: a value Powertools refuses never fails a step.
    }
  }
}
