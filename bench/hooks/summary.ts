/**
 * The bench's findings from its figures, per workload: each path's latency one delivery at
 * a time and in the burst, HTTP beside in-process, against the targets (≤ 5 ms p50, ≥ 500
 * deliveries per second over HTTP); and where an in-process delivery's time goes.
 */
import { stats, type Stats } from '../orchestration/statistics.js';
import type { PathTimes } from '../api/measure-latency.js';
import { signedMs } from '../api/summary.js';
import type { PortProfile, StorelessParts } from './breakdown.js';
import type { BurstFigures } from './burst.js';
import type { Workload } from './deliveries.js';

export const TARGET = { p50Ms: 5, perSecond: 500 } as const;

export interface BurstSummary {
  perSecond: number;
  latency: Stats;
  /** The main thread's busy time per delivery. */
  mainThreadMs: number;
  /** Deliveries one core would take at that busy time: 1000 / mainThreadMs. */
  perMainThreadSecond: number;
}

export interface PathSummary {
  latency: Stats;
  /** One delivery after another: 1000 / the mean latency. */
  sequentialPerSecond: number;
  burst: BurstSummary;
}

export interface WhereRow {
  /** `port.method`, or a subtotal's name. */
  part: string;
  callsPerDelivery: number;
  /** Calls that threw, per delivery: lost races, each tried again. */
  failedPerDelivery: number;
  msPerDelivery: number;
}

export interface WorkloadSummary {
  workload: Workload;
  http: PathSummary;
  inProcess: PathSummary;
  /** HTTP minus in-process, at p50 and p95. */
  added: { p50: number; p95: number };
  /** The targets, judged on the HTTP path: p50 one at a time, deliveries/s in the burst. */
  met: { p50: boolean; perSecond: boolean };
  /** An in-process delivery's time by port call, then their total and the rest: one at a time, and in a burst. */
  where: { sequential: WhereRow[]; burst: WhereRow[] };
}

export interface WorkloadFigures {
  workload: Workload;
  sequential: PathTimes;
  burst: { http: BurstFigures; inProcess: BurstFigures };
  profile: { sequential: PortProfile; burst: PortProfile };
}

export interface Summary {
  workloads: WorkloadSummary[];
  /** Medians in ms of the parts that touch no store. */
  storeless: { readSecret: number; verify: number; normalise: number };
  met: boolean;
  verdict: string;
}

export function burstSummary(figures: BurstFigures): BurstSummary {
  const mainThreadMs = figures.mainThreadBusyMs / figures.deliveries;
  return {
    perSecond: (figures.deliveries * 1000) / figures.wallMs,
    latency: stats(figures.latencies),
    mainThreadMs,
    perMainThreadSecond: 1000 / mainThreadMs,
  };
}

function pathSummary(times: number[], burst: BurstFigures): PathSummary {
  const latency = stats(times);
  return { latency, sequentialPerSecond: 1000 / latency.mean, burst: burstSummary(burst) };
}

/**
 * Mean per delivery by store call, largest first; then `store calls` (their sum) and
 * `the rest` (the delivery's mean minus that sum: the router, the secret's parse, the
 * signature check, normalising, zod, the answer).
 */
export function whereRows(profile: PortProfile): WhereRow[] {
  const per = (value: number) => value / Math.max(1, profile.deliveries);
  const calls = Object.entries(profile.calls)
    .map(([part, total]) => ({
      part,
      callsPerDelivery: per(total.calls),
      failedPerDelivery: per(total.failed),
      msPerDelivery: per(total.ms),
    }))
    .sort((a, b) => b.msPerDelivery - a.msPerDelivery);
  const sum = (of: (row: WhereRow) => number) => calls.reduce((total, row) => total + of(row), 0);
  const storeMs = sum((row) => row.msPerDelivery);
  const totalMs = stats(profile.totalMs).mean;
  const subtotal = (part: string, msPerDelivery: number) => ({
    part,
    callsPerDelivery: 0,
    failedPerDelivery: 0,
    msPerDelivery,
  });
  return [
    ...calls,
    {
      part: 'port calls',
      callsPerDelivery: sum((row) => row.callsPerDelivery),
      failedPerDelivery: sum((row) => row.failedPerDelivery),
      msPerDelivery: storeMs,
    },
    subtotal('the rest', totalMs - storeMs),
    subtotal('delivery (mean)', totalMs),
  ];
}

export function workloadSummary(figures: WorkloadFigures): WorkloadSummary {
  const http = pathSummary(figures.sequential.http, figures.burst.http);
  const inProcess = pathSummary(figures.sequential.inProcess, figures.burst.inProcess);
  return {
    workload: figures.workload,
    http,
    inProcess,
    added: {
      p50: http.latency.median - inProcess.latency.median,
      p95: http.latency.p95 - inProcess.latency.p95,
    },
    met: {
      p50: http.latency.median <= TARGET.p50Ms,
      perSecond: http.burst.perSecond >= TARGET.perSecond,
    },
    where: {
      sequential: whereRows(figures.profile.sequential),
      burst: whereRows(figures.profile.burst),
    },
  };
}

const met = (ok: boolean) => (ok ? 'met' : 'NOT met');

export function summarise(figures: WorkloadFigures[], parts: StorelessParts): Summary {
  const workloads = figures.map(workloadSummary);
  const storeless = {
    readSecret: stats(parts.readSecret).median,
    verify: stats(parts.verify).median,
    normalise: stats(parts.normalise).median,
  };
  const each = workloads.map((w) => {
    const store = w.where.sequential.find((row) => row.part === 'port calls')?.msPerDelivery ?? 0;
    const total =
      w.where.sequential.find((row) => row.part === 'delivery (mean)')?.msPerDelivery ?? 0;
    return (
      `${w.workload}: p50 ${w.http.latency.median.toFixed(1)} ms (≤ ${TARGET.p50Ms}: ` +
      `${met(w.met.p50)}), ${Math.round(w.http.burst.perSecond)}/s in the burst ` +
      `(≥ ${TARGET.perSecond}: ${met(w.met.perSecond)}), HTTP ${signedMs(w.added.p50)} ms at ` +
      `p50; in-process, port calls ${store.toFixed(1)} of ${total.toFixed(1)} ms`
    );
  });
  const storelessMs = storeless.readSecret + storeless.verify + storeless.normalise;
  return {
    workloads,
    storeless,
    met: workloads.every((w) => w.met.p50 && w.met.perSecond),
    verdict:
      `Hook intake over HTTP: ${each.join('; ')}; without a store (hooks.json read, ` +
      `signature check, normalise) ${storelessMs.toFixed(2)} ms at p50`,
  };
}
