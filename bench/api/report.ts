/** The Run API bench's report: tables of text, or one JSON document (`--json`). */
import { availableParallelism, loadavg } from 'node:os';
import { fmt, plainTable } from '../orchestration/table-output.js';
import { round, roundStats, type Stats } from '../orchestration/statistics.js';
import type { LatencyFigures } from './measure-latency.js';
import type { Options } from './options.js';
import {
  ADDED_TARGET_MS,
  kB,
  signedMs,
  type BundleSummary,
  type RouteSummary,
  type Summary,
} from './summary.js';

/** Said in both reports: POST /runs starts no execution here. */
const starterNote = (starts: number) =>
  `POST /runs starts no execution: a counting no-op starter stands in for Step Functions ` +
  `(${starts} starts recorded, none run)`;

const met = (ok: boolean) => (ok ? 'met' : 'NOT met');

/** The parts shown in the bundle table (the JSON has them all). */
const PARTS_SHOWN = 3;

/** The report as lines of text, each ending in a newline. */
export function textReport(summary: Summary, latency: LatencyFigures, options: Options): string {
  const lines = [
    `Run API through the local server (loopback HTTP, SigV4-signed by the client and checked ` +
      `by the server) beside the same router called in-process with the equivalent event: ` +
      `${options.samples} calls per path after ${options.warmup} warm-up calls, the two paths ` +
      `alternating; Node ${process.version}, ${availableParallelism()} cores, load average ` +
      `${(loadavg()[0] ?? 0).toFixed(2)} (on a shared machine it explains most of the spread); ` +
      'times in ms',
    starterNote(latency.starts),
    latencyTable(summary.routes),
    `added = HTTP − in-process, at p50 and p95 (p95 interpolated); target: added at p50 ≤ ` +
      `${ADDED_TARGET_MS} ms; ref. = a path no route takes (the router answers 404 at once)`,
    '',
    `Function bundles (esbuild as CDK bundles them: minified ESM with names kept, node22, SDK ` +
      `inside, no source map; kB = 1000 bytes); import = a fresh node process importing ` +
      `index.mjs with the functions' environment (dummy values), median of ${options.imports}:`,
    bundleTable(summary.bundles, summary.baselineImport),
    '',
    summary.verdict,
  ];
  return lines.map((line) => `${line}\n`).join('');
}

function latencyTable(routes: RouteSummary[]): string {
  const table = plainTable(
    ['', 'median', 'p95', 'min', 'max', 'IQR', 'added p50 / p95', 'target'],
    ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'left'],
  );
  const cells = (s: Stats) => [
    fmt(s.median),
    fmt(s.p95),
    fmt(s.min),
    fmt(s.max),
    `${fmt(s.q1)}–${fmt(s.q3)}`,
  ];
  for (const route of routes) {
    const name = route.target ? route.route : `ref. ${route.route}`;
    table.push([
      `${name} via HTTP`,
      ...cells(route.http),
      `${signedMs(route.added.p50)} / ${signedMs(route.added.p95)}`,
      route.target ? `≤ ${ADDED_TARGET_MS}: ${met(route.met)}` : '',
    ]);
    table.push([`${name} in-process (BASELINE)`, ...cells(route.inProcess), '', '']);
  }
  return table.toString();
}

function bundleTable(bundles: BundleSummary[], baseline: Stats): string {
  const table = plainTable(
    ['function', 'kB', 'gzip', 'import', '− empty', 'target', 'largest parts (kB)'],
    ['left', 'right', 'right', 'right', 'right', 'left', 'left'],
  );
  for (const bundle of bundles)
    table.push([
      bundle.name,
      kB(bundle.bytes),
      kB(bundle.gzipBytes),
      fmt(bundle.importMs.median),
      fmt(bundle.importOverBaselineMs),
      `≤ ${kB(bundle.limit.bytes)} ${bundle.limit.of === 'zipped' ? 'zipped' : 'kB'}: ${met(bundle.met)}`,
      bundle.parts
        .slice(0, PARTS_SHOWN)
        .map((part) => `${part.owner} ${Math.round(part.bytes / 1000)}`)
        .join(', '),
    ]);
  table.push(['BASELINE empty module', '', '', fmt(baseline.median), '', '', '']);
  return table.toString();
}

/** `--json`: every figure, times rounded to 2 decimals. */
export function jsonReport(
  summary: Summary,
  latency: LatencyFigures,
  options: Options,
  elapsedMs: number,
): string {
  return `${JSON.stringify(
    {
      verdict: summary.verdict,
      target: {
        addedMsAtP50: ADDED_TARGET_MS,
        met: summary.met,
        rule: "HTTP p50 − in-process p50 ≤ target for each route; each bundle within its limit (an API function's index.mjs, any function zipped)",
      },
      config: {
        samples: options.samples,
        warmup: options.warmup,
        imports: options.imports,
        node: process.version,
        cores: availableParallelism(),
        loadAverage1m: loadavg()[0] ?? 0,
        starter: starterNote(latency.starts),
        percentile: 'linear interpolation between closest ranks',
      },
      routes: summary.routes.map((route) => ({
        route: route.route,
        reference: !route.target,
        httpMs: roundStats(route.http),
        inProcessMs: roundStats(route.inProcess),
        addedMs: { p50: round(route.added.p50, 2), p95: round(route.added.p95, 2) },
        ...(route.target ? { met: route.met } : {}),
      })),
      bundles: summary.bundles.map((bundle) => ({
        ...bundle,
        importMs: roundStats(bundle.importMs),
        importOverBaselineMs: round(bundle.importOverBaselineMs, 2),
      })),
      baselineImportMs: roundStats(summary.baselineImport),
      elapsedMs: Math.round(elapsedMs),
    },
    null,
    2,
  )}\n`;
}
