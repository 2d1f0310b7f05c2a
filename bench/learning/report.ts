/** The learning bench's findings, as one JSON document or as lines of text. */
import { availableParallelism, loadavg } from 'node:os';
import { roundStats, stats, type Stats } from '../orchestration/statistics.js';
import type { LoadTimes, QueryTimes } from './measure.js';
import type { Options } from './options.js';

export const TARGET_P50_MS = 5;

export interface RecallFigures {
  /** recall@5 querying with each case's error line. */
  errorLine: number;
  /** recall@1, the same. */
  errorLineAt1: number;
  /** recall@5 querying with the loop's signature of the whole output instead. */
  loopSignature: number;
  /** recall@5 with the fixture's patterns among the synthetic registry's. */
  amongSynthetic: number;
}

export interface Recall {
  cases: number;
  patterns: number;
  index: RecallFigures;
  linear: RecallFigures;
}

export interface Measured {
  snapshotBytes: number;
  averageQueryTerms: number;
  load: LoadTimes;
  queries: QueryTimes;
  recall: Recall;
}

export type LearningReport = ReturnType<typeof learningReport>;

export function learningReport(options: Options, measured: Measured) {
  const index = roundStats(stats(measured.queries.indexMs));
  const linear = roundStats(stats(measured.queries.linearMs));
  return {
    patterns: options.patterns,
    snapshotBytes: measured.snapshotBytes,
    queries: options.queries,
    averageQueryTerms: Math.round(measured.averageQueryTerms * 10) / 10,
    load: {
      loads: options.loads,
      totalMs: roundStats(stats(measured.load.totalMs)),
      parseMs: roundStats(stats(measured.load.parseMs)),
      validateMs: roundStats(stats(measured.load.validateMs)),
      indexMs: roundStats(stats(measured.load.indexMs)),
      linearBuildMs: roundStats(stats(measured.load.linearBuildMs)),
    },
    top5: { index, linear, sharedWithLinear: Math.round(measured.queries.sharedTop * 100) / 100 },
    speedupAtP50: linear.median / index.median,
    target: { p50Ms: TARGET_P50_MS, met: index.median <= TARGET_P50_MS },
    recall: measured.recall,
    machine: {
      cores: availableParallelism(),
      loadAverage1m: loadavg()[0] ?? 0,
      node: process.version,
    },
  };
}

const ms = (value: number): string => value.toFixed(2).padStart(8);
const thousands = (value: number): string => value.toLocaleString('en-US');
const median = (s: Stats): string =>
  `${s.median.toFixed(0)} ms (${s.min.toFixed(0)}–${s.max.toFixed(0)})`;
const row = (name: string, s: Stats): string =>
  `  ${name.padEnd(22)}${ms(s.median)}${ms(s.p95)}   (min ${s.min.toFixed(2)}, max ${s.max.toFixed(2)})`;
const recallRow = (name: string, index: number, linear: number): string =>
  `  ${name.padEnd(58)}${index.toFixed(2).padStart(10)}${linear.toFixed(2).padStart(14)}`;

export function textLines(report: LearningReport): string[] {
  const { load, top5, recall } = report;
  return [
    `learning retrieval: ${thousands(report.patterns)} synthetic patterns (snapshot ${(report.snapshotBytes / 1e6).toFixed(1)} MB), ${thousands(report.queries)} queries of ~${report.averageQueryTerms} terms, top 5, one thread`,
    `snapshot load, median of ${load.loads} (min–max): ${median(load.totalMs)} = JSON.parse ${median(load.parseMs)} + zod ${median(load.validateMs)} + index ${median(load.indexMs)}; the linear scan's build ${median(load.linearBuildMs)}`,
    `top-5 retrieval (ms)          p50     p95`,
    row('minisearch (BM25)', top5.index),
    row('linear scan (baseline)', top5.linear),
    `speedup at p50: ×${report.speedupAtP50.toFixed(1)}; of the index's top 5, ${top5.sharedWithLinear} on average are in the linear scan's`,
    `target: top-5 p50 ≤ ${report.target.p50Ms} ms after the snapshot is loaded: ${report.target.met ? 'met' : 'NOT met'}`,
    `recall on the tool-error fixture (${recall.cases} cases, ${recall.patterns} patterns)   minisearch   linear scan`,
    recallRow('recall@5', recall.index.errorLine, recall.linear.errorLine),
    recallRow('recall@1', recall.index.errorLineAt1, recall.linear.errorLineAt1),
    recallRow(
      "recall@5, the loop's own query",
      recall.index.loopSignature,
      recall.linear.loopSignature,
    ),
    recallRow(
      `recall@5 among the ${thousands(report.patterns)} synthetic`,
      recall.index.amongSynthetic,
      recall.linear.amongSynthetic,
    ),
    `machine: ${report.machine.cores} cores, load average ${report.machine.loadAverage1m.toFixed(2)}, node ${report.machine.node}`,
  ];
}
