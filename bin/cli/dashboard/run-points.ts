/**
 * The metric points a stored run gives, as the steps emit them: each recorded iteration's
 * through `iterationMetrics` and an ended run's through `runMetrics` (loop-metrics.ts), so a
 * local chart draws exactly the values CloudWatch receives.
 */
import { iterationMetrics, runMetrics } from '../../../lambdas/core/observability/loop-metrics.js';
import type { MetricPoint } from '../../../lambdas/core/schemas/metric-catalogue.js';
import type { IterationRecord } from '../../../lambdas/core/schemas/iteration.js';
import { TERMINAL_STATUSES } from '../../../lambdas/core/steps/end-segment.js';
import type { RunRecord } from '../../../lambdas/core/schemas/run.js';

/** One moment of a run's metrics: an iteration, or the run's end. */
export interface RunSample {
  runId: string;
  /** The iteration it belongs to (the run's end: its last iteration). */
  iteration: number;
  /** When it was measured (ISO), absent when not known. */
  at?: string;
  points: MetricPoint[];
}

export interface StoredRun {
  run: RunRecord;
  iterations: readonly IterationRecord[];
}

/** Every sample of a run: its recorded iterations in order, then its end once it has ended. */
export function runSamples({ run, iterations }: StoredRun): RunSample[] {
  const recorded = [...iterations]
    .filter((record) => record.outcome !== undefined)
    .sort((a, b) => a.iteration - b.iteration);
  const passedAfter = storiesPassedAfter(run, recorded);
  const samples: RunSample[] = recorded.map((record, index) => ({
    runId: run.runId,
    iteration: record.iteration,
    ...(record.endedAt ? { at: record.endedAt } : {}),
    points: iterationMetrics(record, passedAfter[index]),
  }));
  // The step that ends a run emits these once it is over (a pause is not an end).
  if (TERMINAL_STATUSES.has(run.status) && run.endedAt)
    samples.push({
      runId: run.runId,
      iteration: recorded.at(-1)?.iteration ?? 0,
      at: run.endedAt,
      points: runMetrics(run, iterations),
    });
  return samples;
}

/**
 * The run's stories passed once each iteration was recorded (what Advance emits): the
 * stories its passing iterations completed, plus those that passed before it began (the
 * run's count now, less the ones its iterations completed).
 */
function storiesPassedAfter(run: RunRecord, recorded: readonly IterationRecord[]): number[] {
  const completed = new Set<string>();
  const counts = recorded.map((record) => {
    if (record.outcome === 'passed' && record.taskId) completed.add(record.taskId);
    return completed.size;
  });
  const before = Math.max(0, run.storiesPassed - completed.size);
  return counts.map((count) => count + before);
}
