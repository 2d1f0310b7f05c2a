/**
 * Where the loop's metrics go: CloudWatch Embedded Metric Format from a deployed step (its
 * log is the transport), a file or nothing locally. Apart from ports.ts, which holds the
 * loop's stores.
 */
import type { MetricPoint } from './core/schemas/metric-catalogue.js';
import type { ProjectSpendEntry } from './core/schemas/project-spend.js';

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

/**
 * What a project's runs spent per UTC day: the counter `limits.maxCostUsdPerProjectDay` is
 * held against (kept with the run records: RunStore extends it).
 */
export interface ProjectSpendStore {
  /** Adds an iteration's cost to its project's spend of a day, once per `countedAs`. */
  addProjectSpend(spend: ProjectSpendEntry): Promise<void>;
  /** USD the project's runs spent on `day` (UTC, YYYY-MM-DD); 0 when nothing was counted. */
  getProjectSpend(projectId: string, day: string): Promise<number>;
}
