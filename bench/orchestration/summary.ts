/**
 * The bench's findings from its figures: one summary row per measured quantity, the
 * overhead against its target, where the time goes, and one iteration's calls in order.
 */
import { LOOP_STATES } from './loop-steps.js';
import type { Figures } from './measure-all.js';
import type { Measured } from './measured-run.js';
import type { Options } from './options.js';
import { profileOf, traceOf, type ProfileRow, type TraceEntry } from './profile.js';
import type { IterationSample } from './samples.js';
import { round, stats, type Stats } from './statistics.js';

/** The overhead's median and p95 must both stay at or under this. */
export const TARGET_MS = 100;

export interface SummaryRow {
  /** Its name in the JSON output's `summaryMs`. */
  key: string;
  /** Its name in the printed table. */
  label: string;
  values: number[];
  /** The row the target applies to. */
  target?: boolean;
}

export interface Summary {
  measurements: Measured[];
  samples: IterationSample[];
  rows: SummaryRow[];
  /** Event-loop busy time per iteration, averaged over the measured runs. */
  mainThreadBusyMs: number;
  rssMb: number;
  overhead: Stats;
  met: boolean;
  profile: ProfileRow[];
  traceIteration: number;
  trace: TraceEntry[];
  verdict: string;
}

export function summarise(figures: Figures, options: Options): Summary {
  const { measurements } = figures;
  const samples = measurements.flatMap((m) => m.samples);
  const overhead = stats(samples.map((sample) => sample.overheadMs));
  const met = overhead.median <= TARGET_MS && overhead.p95 <= TARGET_MS;
  const firstRun = measurements[0];
  const traceIteration = Math.min(2, options.iterations);
  return {
    measurements,
    samples,
    rows: summaryRows(figures, samples),
    mainThreadBusyMs:
      measurements.reduce((sum, m) => sum + m.mainThreadBusyMs, 0) / measurements.length,
    rssMb: figures.rssMb,
    overhead,
    met,
    profile: profileOf(measurements),
    traceIteration,
    trace: firstRun ? traceOf(firstRun, traceIteration) : [],
    verdict:
      `orchestration overhead per iteration: median ${round(overhead.median)} ms, ` +
      `p95 ${round(overhead.p95)} ms (target ≤ ${TARGET_MS} ms: ${met ? 'met' : 'NOT met'})`,
  };
}

function summaryRows(figures: Figures, samples: readonly IterationSample[]): SummaryRow[] {
  const coldOverheads = figures.measurements.flatMap((m) => m.coldSamples.map((c) => c.overheadMs));
  const pick = (field: keyof IterationSample) =>
    samples
      .map((sample) => sample[field])
      .filter((value): value is number => typeof value === 'number');
  return [
    { key: 'overhead', label: 'orchestration overhead', values: pick('overheadMs'), target: true },
    ...(coldOverheads.length > 0
      ? [{ key: 'cold', label: '  cold stack: the warm-up run', values: coldOverheads }]
      : []),
    { key: 'handlers', label: '  handlers: Advance', values: pick('handlersMs') },
    { key: 'runner', label: '  runner: RunAgent − agent − gates', values: pick('runnerMs') },
    { key: 'engine', label: '  engine: transitions, the rest', values: pick('engineMs') },
    ...LOOP_STATES.map((state) => ({
      key: `step.${state}`,
      label: `step ${state}`,
      values: defined(samples.map((sample) => sample.steps[state])),
    })).filter((row) => row.values.length > 0),
    { key: 'agent', label: 'agent (excluded)', values: pick('agentMs') },
    { key: 'wall', label: 'iteration wall time', values: pick('wallMs') },
    {
      key: 'between',
      label: 'to the next iteration (not in wall)',
      values: defined(samples.map((sample) => sample.betweenMs)),
    },
    ...baselineRows(figures),
  ];
}

function baselineRows({ baseline, getItemTimes, getRunTimes, gitCalls }: Figures): SummaryRow[] {
  return [
    {
      key: 'baselineEngine',
      label: 'BASELINE engine, no-op tasks',
      values: baseline.map((b) => b.wallMs),
    },
    {
      key: 'baselineBetween',
      label: 'BASELINE to the next iteration',
      values: defined(baseline.map((b) => b.betweenMs)),
    },
    { key: 'getItem', label: 'BASELINE DynamoDB GetItem', values: getItemTimes },
    { key: 'getRun', label: 'ref. RunStore.getRun (+ zod)', values: getRunTimes },
    { key: 'gitViaServer', label: 'ref. 1 git call, spawn server', values: gitCalls.viaServer },
    {
      key: 'gitSpawnedHere',
      label: 'ref. 1 git call, forked here',
      values: gitCalls.spawnedHere,
    },
  ];
}

function defined(values: (number | undefined)[]): number[] {
  return values.filter((value): value is number => value !== undefined);
}
