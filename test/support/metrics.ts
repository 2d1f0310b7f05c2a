/**
 * The loop's metrics in tests: the real EMF adapter, its documents kept in memory (a step's
 * log is the outer edge), so a test can read what a step emitted or ignore it.
 */
import { EmfMetricsSink } from '../../lambdas/adapters/emf-metrics.js';

export function capturedMetrics(): {
  sink: EmfMetricsSink;
  documents: () => Record<string, unknown>[];
} {
  const lines: string[] = [];
  const sink = new EmfMetricsSink({
    service: 'ralph-cloud-test',
    write: (line) => lines.push(line),
  });
  return {
    sink,
    documents: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
