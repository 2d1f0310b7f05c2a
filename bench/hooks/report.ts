/** The hook intake bench's report: tables of text, or one JSON document (`--json`). */
import { availableParallelism, loadavg } from 'node:os';
import { signedMs } from '../api/summary.js';
import { round, roundStats, type Stats } from '../orchestration/statistics.js';
import { fmt, plainTable } from '../orchestration/table-output.js';
import { BATCH_WINDOW_SECONDS, MAX_RUNS_PER_HOUR } from './intake-under-test.js';
import type { Options } from './options.js';
import {
  TARGET,
  type PathSummary,
  type Summary,
  type WhereRow,
  type WorkloadSummary,
} from './summary.js';

const met = (ok: boolean) => (ok ? 'met' : 'NOT met');

/** Said in both reports: what was posted, and why no run started. */
const setup = (options: Options) =>
  `signed Sentry "issue" deliveries (the recorded issue.created payload, a fresh signature, ` +
  `timestamp and request id each; the signing untimed); new-groups = a distinct issue each ` +
  `(group created, its project's batch joined; 100 per project, a batch's most), repeats = one ` +
  `issue again (group found, counts added); every route's batchWindowSeconds ` +
  `${BATCH_WINDOW_SECONDS}, so no batch closed and no run started during the bench, and ` +
  `maxRunsPerHour ${MAX_RUNS_PER_HOUR} (deliveries racing to open a project's first batch ` +
  `each count a run: at the default 6, a burst of more in flight holds groups); the local ` +
  `server's stage throttle (ralph serve: 50/s, burst 100) off; burst = ${options.burst} ` +
  `deliveries per path, ${options.inFlight} in flight`;

/** The report as lines of text, each ending in a newline. */
export function textReport(summary: Summary, options: Options): string {
  const lines = [
    `Hook intake (POST /hooks/sentry: verify, normalise, dedup, answer) through the local ` +
      `server (loopback HTTP) beside the same router called in-process with the equivalent ` +
      `event, on the local stack in memory (dynalite on its worker thread): ` +
      `${options.samples} deliveries per path and workload after ${options.warmup} warm-up ` +
      `ones, the two paths alternating; Node ${process.version}, ${availableParallelism()} ` +
      `cores, load average ${(loadavg()[0] ?? 0).toFixed(2)} (on a shared machine it explains ` +
      `most of the spread); times in ms`,
    setup(options),
    '',
    'One delivery at a time (per s = 1000 / mean):',
    sequentialTable(summary.workloads),
    `added = HTTP − in-process at p50 / p95 (p95 interpolated); target: HTTP p50 ≤ ${TARGET.p50Ms} ms`,
    '',
    `Burst, ${options.inFlight} in flight (main thread = its event loop busy per delivery: ` +
      'server, router, handler, SDK clients; the emulators run on their own thread):',
    burstTable(summary.workloads),
    `target: ≥ ${TARGET.perSecond} deliveries/s over HTTP`,
    '',
    'Where an in-process delivery goes (mean per delivery, through a router whose port calls ' +
      'are timed: one at a time, and in a burst where calls overlap and a lost race is tried ' +
      'again; the rest = router, secret parse, signature check, normalise, zod, answer):',
    whereTable(summary.workloads, options.inFlight),
    `Without a store, each alone (median): hooks.json read ${fmt2(summary.storeless.readSecret)}, ` +
      `signature check ${fmt2(summary.storeless.verify)}, normalise ${fmt2(summary.storeless.normalise)}`,
    '',
    summary.verdict,
  ];
  return lines.map((line) => `${line}\n`).join('');
}

const fmt2 = (ms: number) => `${ms.toFixed(2)} ms`;

const statCells = (s: Stats) => [
  fmt(s.median),
  fmt(s.p95),
  fmt(s.min),
  fmt(s.max),
  `${fmt(s.q1)}–${fmt(s.q3)}`,
];

function sequentialTable(workloads: WorkloadSummary[]): string {
  const table = plainTable(
    ['', 'median', 'p95', 'min', 'max', 'IQR', 'per s', 'added p50 / p95', 'target'],
    ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'left'],
  );
  for (const w of workloads) {
    const row = (path: PathSummary) => [
      ...statCells(path.latency),
      String(Math.round(path.sequentialPerSecond)),
    ];
    table.push([
      `${w.workload} via HTTP`,
      ...row(w.http),
      `${signedMs(w.added.p50)} / ${signedMs(w.added.p95)}`,
      `p50 ≤ ${TARGET.p50Ms}: ${met(w.met.p50)}`,
    ]);
    table.push([`${w.workload} in-process (BASELINE)`, ...row(w.inProcess), '', '']);
  }
  return table.toString();
}

function burstTable(workloads: WorkloadSummary[]): string {
  const table = plainTable(
    ['', 'per s', 'median', 'p95', 'main thread', 'per s of it', 'target'],
    ['left', 'right', 'right', 'right', 'right', 'right', 'left'],
  );
  for (const w of workloads) {
    const row = ({ burst }: PathSummary) => [
      String(Math.round(burst.perSecond)),
      fmt(burst.latency.median),
      fmt(burst.latency.p95),
      burst.mainThreadMs.toFixed(2),
      String(Math.round(burst.perMainThreadSecond)),
    ];
    table.push([
      `${w.workload} via HTTP`,
      ...row(w.http),
      `≥ ${TARGET.perSecond}/s: ${met(w.met.perSecond)}`,
    ]);
    table.push([`${w.workload} in-process (BASELINE)`, ...row(w.inProcess), '']);
  }
  return table.toString();
}

/** One row per part: one at a time beside the burst (a part only one of them had is blank in the other). */
function whereTable(workloads: WorkloadSummary[], inFlight: number): string {
  const table = plainTable(
    ['workload', 'part', 'calls', 'ms', `calls (${inFlight} in flight)`, 'lost races', 'ms'],
    ['left', 'left', 'right', 'right', 'right', 'right', 'right'],
  );
  const count = (value: number | undefined) => (value ? value.toFixed(2) : '');
  const ms = (value: number | undefined) => (value === undefined ? '' : value.toFixed(2));
  for (const w of workloads) {
    const burst = new Map(w.where.burst.map((row) => [row.part, row]));
    const parts = [
      ...w.where.sequential.map((row) => row.part),
      ...w.where.burst
        .map((row) => row.part)
        .filter((part) => !w.where.sequential.some((row) => row.part === part)),
    ];
    for (const part of parts) {
      const one = w.where.sequential.find((row) => row.part === part);
      const many = burst.get(part);
      table.push([
        w.workload,
        part,
        count(one?.callsPerDelivery),
        ms(one?.msPerDelivery),
        count(many?.callsPerDelivery),
        count(many?.failedPerDelivery),
        ms(many?.msPerDelivery),
      ]);
    }
  }
  return table.toString();
}

const whereJson = (rows: WhereRow[]) =>
  rows.map((row) => ({
    part: row.part,
    callsPerDelivery: round(row.callsPerDelivery, 2),
    failedPerDelivery: round(row.failedPerDelivery, 2),
    msPerDelivery: round(row.msPerDelivery, 2),
  }));

const roundPath = (path: PathSummary) => ({
  latencyMs: roundStats(path.latency),
  sequentialPerSecond: round(path.sequentialPerSecond),
  burst: {
    perSecond: round(path.burst.perSecond),
    latencyMs: roundStats(path.burst.latency),
    mainThreadMsPerDelivery: round(path.burst.mainThreadMs, 2),
    perMainThreadSecond: round(path.burst.perMainThreadSecond),
  },
});

/** `--json`: every figure, times rounded to 2 decimals. */
export function jsonReport(summary: Summary, options: Options, elapsedMs: number): string {
  return `${JSON.stringify(
    {
      verdict: summary.verdict,
      target: {
        p50Ms: TARGET.p50Ms,
        deliveriesPerSecond: TARGET.perSecond,
        met: summary.met,
        rule: 'HTTP p50 one delivery at a time ≤ p50Ms and HTTP deliveries/s in the burst ≥ deliveriesPerSecond, for each workload',
      },
      config: {
        samples: options.samples,
        warmup: options.warmup,
        burst: options.burst,
        inFlight: options.inFlight,
        batchWindowSeconds: BATCH_WINDOW_SECONDS,
        maxRunsPerHour: MAX_RUNS_PER_HOUR,
        setup: setup(options),
        node: process.version,
        cores: availableParallelism(),
        loadAverage1m: loadavg()[0] ?? 0,
        percentile: 'linear interpolation between closest ranks',
      },
      workloads: summary.workloads.map((w) => ({
        workload: w.workload,
        http: roundPath(w.http),
        inProcess: roundPath(w.inProcess),
        addedMs: { p50: round(w.added.p50, 2), p95: round(w.added.p95, 2) },
        met: w.met,
        where: { sequential: whereJson(w.where.sequential), burst: whereJson(w.where.burst) },
      })),
      storelessMedianMs: {
        readSecret: round(summary.storeless.readSecret, 3),
        verify: round(summary.storeless.verify, 3),
        normalise: round(summary.storeless.normalise, 3),
      },
      elapsedMs: Math.round(elapsedMs),
    },
    null,
    2,
  )}\n`;
}
