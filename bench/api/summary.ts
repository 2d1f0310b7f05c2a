/**
 * The bench's findings from its figures: per route, HTTP beside in-process and what the
 * HTTP and signing path adds at p50 against its target; per bundle, its size against its
 * target and its import time beside an empty module's.
 */
import { round, stats, type Stats } from '../orchestration/statistics.js';
import { withinLimit, type Bundle } from './bundles.js';
import type { PathTimes } from './measure-latency.js';

/** What the HTTP and signing path may add to a call at p50. */
export const ADDED_TARGET_MS = 10;

export interface RouteSummary {
  route: string;
  http: Stats;
  inProcess: Stats;
  /** HTTP minus in-process, at p50 (the target's figure) and at p95. */
  added: { p50: number; p95: number };
  /** False for a reference row, which the target does not apply to. */
  target: boolean;
  met: boolean;
}

export interface BundleSummary extends Omit<Bundle, 'file'> {
  importMs: Stats;
  /** The median import minus the empty module's median: the bundle's own share. */
  importOverBaselineMs: number;
  met: boolean;
}

export interface BundleFigures {
  bundles: (Bundle & { importMs: number[] })[];
  /** Importing an empty module in a fresh process, same way. */
  baselineImportMs: number[];
}

export interface Summary {
  routes: RouteSummary[];
  bundles: BundleSummary[];
  baselineImport: Stats;
  met: { latency: boolean; bundles: boolean };
  verdict: string;
}

/** One route's two paths side by side; `target: false` makes it a reference row. */
export function routeSummary(route: string, times: PathTimes, target = true): RouteSummary {
  const http = stats(times.http);
  const inProcess = stats(times.inProcess);
  const added = { p50: http.median - inProcess.median, p95: http.p95 - inProcess.p95 };
  return { route, http, inProcess, added, target, met: added.p50 <= ADDED_TARGET_MS };
}

export function bundleSummaries(figures: BundleFigures): BundleSummary[] {
  const baseline = stats(figures.baselineImportMs).median;
  return figures.bundles.map(({ file: _file, importMs, ...bundle }) => {
    const s = stats(importMs);
    return {
      ...bundle,
      importMs: s,
      importOverBaselineMs: s.median - baseline,
      met: withinLimit(bundle),
    };
  });
}

export function summarise(routes: RouteSummary[], figures: BundleFigures): Summary {
  const bundles = bundleSummaries(figures);
  const targeted = routes.filter((route) => route.target);
  const met = { latency: targeted.every((r) => r.met), bundles: bundles.every((b) => b.met) };
  const over = bundles.filter((bundle) => !bundle.met);
  const sizes = bundles.map((bundle) => bundle.bytes);
  const zipped = bundles.map((bundle) => bundle.gzipBytes);
  const added = targeted.map((r) => `${signedMs(r.added.p50)} ms on ${r.route}`).join(', ');
  return {
    routes,
    bundles,
    baselineImport: stats(figures.baselineImportMs),
    met,
    verdict:
      `Run API: HTTP + signing at p50 ${added} (target ≤ ${ADDED_TARGET_MS} ms added: ` +
      `${met.latency ? 'met' : 'NOT met'}); bundles ${kB(Math.min(...sizes))}–` +
      `${kB(Math.max(...sizes))} kB, zipped ${kB(Math.min(...zipped))}–${kB(Math.max(...zipped))} kB ` +
      `(targets ≤ 1000.0 kB: API index.mjs, every function zipped: ` +
      `${met.bundles ? 'met' : `NOT met by ${over.map((b) => b.name).join(', ')}`})`,
  };
}

/** Bytes in kB (10^3), one decimal. */
export const kB = (bytes: number): string => (bytes / 1000).toFixed(1);

/** A difference in ms with its sign, one decimal: `+1.2`, `−0.4`. */
export const signedMs = (ms: number): string =>
  `${ms < 0 ? '−' : '+'}${Math.abs(round(ms)).toFixed(1)}`;
