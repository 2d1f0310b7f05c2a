/** `--json`: the whole summary as one JSON document, times rounded to 2 decimals. */
import { AGENT_COMMAND } from './measured-run.js';
import type { Options } from './options.js';
import { kindsOf } from './profile.js';
import type { IterationSample } from './samples.js';
import { round, roundedStats } from './statistics.js';
import { TARGET_MS, type Summary } from './summary.js';

export function jsonReport(summary: Summary, options: Options, elapsedMs: number): string {
  const { samples, measurements } = summary;
  return `${JSON.stringify(
    {
      verdict: summary.verdict,
      target: { ms: TARGET_MS, met: summary.met, rule: 'median and p95 of the overhead ≤ target' },
      config: {
        runs: options.runs,
        iterationsPerRun: options.iterations,
        iterationsPooled: samples.length,
        warmupIterations: options.warmup,
        agentCommand: AGENT_COMMAND,
        gates: 0,
        node: process.version,
        rssMb: Math.round(summary.rssMb),
        percentile: 'linear interpolation between closest ranks',
      },
      mainThreadBusyMsPerIteration: round(summary.mainThreadBusyMs, 1),
      summaryMs: Object.fromEntries(summary.rows.map((row) => [row.key, roundedStats(row.values)])),
      profile: summary.profile.map((row) => ({
        ...row,
        perIteration: round(row.perIteration, 2),
        msPerIteration: round(row.msPerIteration, 2),
      })),
      trace: { run: 1, iteration: summary.traceIteration, calls: summary.trace },
      iterations: samples.map((sample) => ({
        ...roundSample(sample),
        byKindMs: kindsOf(measurements[sample.run - 1], sample.iteration),
      })),
      elapsedMs: Math.round(elapsedMs),
    },
    null,
    2,
  )}\n`;
}

function roundSample(sample: IterationSample): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(sample).map(([key, value]) => [
      key,
      typeof value === 'number'
        ? round(value, 2)
        : key === 'steps'
          ? Object.fromEntries(
              Object.entries(value as Record<string, number>).map(([k, v]) => [k, round(v, 2)]),
            )
          : value,
    ]),
  );
}
