/**
 * Where the loop's metrics go: CloudWatch Embedded Metric Format from a deployed step (its
 * log is the transport), a file or nothing locally. Apart from ports.ts, which holds the
 * loop's stores.
 */
import type { MetricPoint } from './core/observability/metric-catalogue.js';

/** Which project and run the values are of (the project a dimension, the rest properties). */
export interface MetricsContext {
  readonly projectId: string;
  readonly runId: string;
  readonly iteration?: number;
  /** Words worth keeping beside the values (a run's status and stop reason). */
  readonly properties?: Readonly<Record<string, string>>;
}

export interface MetricsSink {
  /** Emits the values; never throws: metrics are evidence, not the work. */
  publish(points: readonly MetricPoint[], context: MetricsContext): void;
}
