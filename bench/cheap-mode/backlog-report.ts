/** The backlog's findings: what it holds, its CPU times beside their baselines, the target. */
import type { CpuTime, UniqueFigures } from './backlog-timing.js';
import type { CliFigures } from './cli-timing.js';

/** A backlog of this many stories scores in less CPU time than this. */
export const BACKLOG_TARGET_MS = 1000;

export interface BacklogMeasurements {
  stories: number;
  /** The stories that repeat an earlier one, by what was changed. */
  nearDuplicates: { role: number; word: number };
  /** Stories with a defect of the criterion, in one scoring of the backlog. */
  flagged: { unique: number; uniform: number };
  /** `evaluateBacklog` with the default detectors, as in production. */
  allDetectors: CpuTime;
  /** The same with uniform and unique off: the per-story work alone. */
  storyDetectorsOnly: CpuTime;
  unique: UniqueFigures;
  /** `null`: not measured (`--skip-cli`). */
  cli: CliFigures | null;
}

export type BacklogReport = ReturnType<typeof backlogReport>;

export function backlogReport(measured: BacklogMeasurements) {
  return {
    ...measured,
    targetMs: BACKLOG_TARGET_MS,
    met: measured.allDetectors.median < BACKLOG_TARGET_MS,
  };
}

const ms = (value: number): string => Math.round(value).toLocaleString('en-US');

const row = (name: string, time: CpuTime): string =>
  `${name.padEnd(48)}${ms(time.median).padStart(8)} ms CPU   (min ${ms(time.min)}, max ${ms(time.max)})`;

function cliLine(cli: CliFigures | null): string {
  if (cli === null) return 'ralph eval FOLDER --mode cheap --json: not measured (--skip-cli)';
  return `ralph eval FOLDER --mode cheap --json (${cli.stories} .txt files): ${ms(cli.cpuMs)} ms CPU, the process and its children; one story: ${ms(cli.oneStoryCpuMs)} ms (start-up and loading); the difference ${ms(cli.cpuMs - cli.oneStoryCpuMs)} ms`;
}

export function backlogLines(report: BacklogReport): string[] {
  const { unique } = report;
  return [
    `backlog: ${report.stories} one-sentence stories scored at once (evaluateBacklog), ${report.nearDuplicates.role + report.nearDuplicates.word} near-duplicates (${report.nearDuplicates.role} for another role, ${report.nearDuplicates.word} with a word changed); flagged ${report.flagged.unique} unique, ${report.flagged.uniform} uniform`,
    row('all detectors (as in production)', report.allDetectors),
    row('uniform and unique off (per-story work alone)', report.storyDetectorsOnly),
    row('unique alone, prefix filtering', unique.prefixFiltered),
    `${`unique alone, all pairs: ${ms(unique.allPairsSubset.median)} ms on ${unique.subset}, scaled`.padEnd(48)}${ms(unique.allPairsExtrapolatedMs).padStart(8)} ms CPU   (same stories flagged on the ${unique.subset}: ${unique.agree ? 'yes' : 'NO'})`,
    cliLine(report.cli),
    `target < ${ms(BACKLOG_TARGET_MS)} ms CPU for the backlog (all detectors, median): ${report.met ? 'met' : 'NOT met'}`,
  ];
}
