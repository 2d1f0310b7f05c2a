import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { METRICS_NAMESPACE, type MetricName } from '../lambdas/core/schemas/metric-catalogue.js';

/** The namespace the steps publish in (the catalogue's). */
export const LOOP_METRICS_NAMESPACE = METRICS_NAMESPACE;

/** How long a dashboard point or an alarm evaluation sums the steps' values over. */
export const LOOP_METRIC_PERIOD = Duration.minutes(5);

/**
 * One metric of the catalogue as the steps publish it: namespace `RalphCloud`, the name
 * from the catalogue (so no dashboard or alarm can name a metric nothing emits) and the
 * dimensions of one of the sets the metrics adapter writes.
 */
export function loopMetric(
  name: MetricName,
  dimensions: Readonly<Record<string, string>>,
  statistic: string,
): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: LOOP_METRICS_NAMESPACE,
    metricName: name,
    dimensionsMap: { ...dimensions },
    statistic,
    period: LOOP_METRIC_PERIOD,
  });
}
