/** The cheap-mode bench's findings, as one JSON document or as lines of text. */
import { availableParallelism, loadavg } from 'node:os';
import { backlogLines, backlogReport, type BacklogMeasurements } from './backlog-report.js';
import type { CorpusFigures, RegexFigures } from './corpus.js';
import type { Options } from './options.js';
import type { Throughput } from './throughput.js';

export const TARGET_PER_SECOND = 50_000;

export interface Measurements {
  corpus: CorpusFigures;
  regexes: RegexFigures;
  compileMs: { compiled: number; reference: number };
  /** The compiled matcher with the pattern set's QUS detectors on (the default, production). */
  compiled: Throughput;
  /** The same with `qus: { detectors: [] }`. */
  detectorsOff: Throughput;
  baseline: Throughput;
  backlog: BacklogMeasurements;
}

export type CheapModeReport = ReturnType<typeof cheapModeReport>;

export function cheapModeReport(options: Options, measured: Measurements) {
  return {
    patterns: options.patterns,
    ...measured.regexes,
    documents: options.documents,
    averageDocumentChars: Math.round(measured.corpus.characters / options.documents),
    averagePatternsFired: Math.round((measured.corpus.fired / options.documents) * 10) / 10,
    /** Share of the documents with a defect of each criterion, in per cent. */
    defectShares: Object.fromEntries(
      Object.entries(measured.corpus.defects).map(([criterion, count]) => [
        criterion,
        Math.round((count / options.documents) * 1000) / 10,
      ]),
    ),
    compileMs: measured.compileMs,
    rounds: options.rounds,
    minRoundMs: options.minRoundMs,
    compiled: measured.compiled,
    detectorsOff: measured.detectorsOff,
    baseline: measured.baseline,
    speedup: measured.compiled.wall.median / measured.baseline.wall.median,
    /** The share of the detectors-off throughput the detectors take. */
    detectorCost: 1 - measured.compiled.wall.median / measured.detectorsOff.wall.median,
    target: TARGET_PER_SECOND,
    met: measured.compiled.wall.median >= TARGET_PER_SECOND,
    backlog: backlogReport(measured.backlog),
    machine: {
      cores: availableParallelism(),
      loadAverage1m: loadavg()[0] ?? 0,
      node: process.version,
    },
  };
}

const perSecond = (value: number): string => Math.round(value).toLocaleString('en-US');

const row = (name: string, result: Throughput): string =>
  `${name.padEnd(48)}${perSecond(result.wall.median).padStart(10)}/s   (min ${perSecond(result.wall.min)}, max ${perSecond(result.wall.max)}; per CPU second ${perSecond(result.cpu.median)})`;

export function textLines(report: CheapModeReport): string[] {
  return [
    `cheap mode: ${report.patterns} active patterns (${report.regexes} regexes: ${report.regexesExact} exact string sets, ${report.regexesWithLiteral} with a literal prefilter, ${report.regexes - report.regexesExact - report.regexesWithLiteral} always run)`,
    `corpus: ${report.documents} user stories, ~${report.averageDocumentChars} chars, ${report.averagePatternsFired} patterns fired on average`,
    `QUS defects in the corpus: ${
      Object.entries(report.defectShares)
        .map(([criterion, share]) => `${criterion} ${share}%`)
        .join(', ') || 'none'
    }`,
    `compile: ${report.compileMs.compiled.toFixed(1)} ms (automaton), ${report.compileMs.reference.toFixed(1)} ms (reference); ${report.rounds} rounds of ≥ ${report.minRoundMs} ms each, one thread`,
    row('compiled, QUS detectors on (as in production)', report.compiled),
    row('compiled, QUS detectors off', report.detectorsOff),
    row('baseline (one regex per pattern, detectors on)', report.baseline),
    `speedup: ×${report.speedup.toFixed(1)} over the baseline; the detectors take ${(report.detectorCost * 100).toFixed(0)}% of the throughput`,
    `target ≥ ${perSecond(TARGET_PER_SECOND)} artefacts/s (detectors on, median): ${report.met ? 'met' : 'NOT met'}`,
    ...backlogLines(report.backlog),
    `machine: ${report.machine.cores} cores, load average ${report.machine.loadAverage1m.toFixed(2)}, node ${report.machine.node}`,
  ];
}
