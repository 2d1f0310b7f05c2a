/** The printed report: a headline, the summary table, where the time goes, the trace. */
import Table from 'cli-table3';
import type { Options } from './options.js';
import { round, stats } from './statistics.js';
import { TARGET_MS, type Summary } from './summary.js';

/** A time in ms for a table cell: one decimal, `-` when there is none. */
export const fmt = (value: number) => (Number.isNaN(value) ? '-' : value.toFixed(1));

/** A borderless, uncoloured table, as every bench prints. */
export const plainTable = (head: string[], colAligns: ('left' | 'right')[]) =>
  new Table({ head, colAligns, style: { head: [], border: [] } });

/** The report as lines of text, each ending in a newline. */
export function textReport(summary: Summary, options: Options): string {
  const lines = [
    ...headline(summary, options),
    summaryTable(summary),
    'overhead = Advance end − RunAgent start − agentMs − gatesMs; engine = ' +
      'overhead − step durations; BASELINE = same ASL, every Task a no-op; p95 interpolated',
    '',
    'Where the time goes (mean per iteration; calls side by side each count their whole time; ' +
      'other = no call in flight):',
    whereTable(summary),
    ...(options.trace
      ? [
          '',
          `Every call of iteration ${summary.traceIteration} (run 1), in order:`,
          traceTable(summary),
        ]
      : []),
    '',
    summary.verdict,
  ];
  return lines.map((line) => `${line}\n`).join('');
}

function headline({ samples, rssMb, mainThreadBusyMs }: Summary, options: Options): string[] {
  return [
    `Local orchestration overhead per iteration, agent and gates excluded: ${samples.length} ` +
      `iterations (${options.runs} run${options.runs > 1 ? 's' : ''} × ${options.iterations}, ` +
      `each after a ${options.warmup}-iteration warm-up run on the same stack), no-op agent, ` +
      `no gates; Node ${process.version}, RSS ${Math.round(rssMb)} MB; times in ms`,
    `main thread busy: ${round(mainThreadBusyMs)} ms per iteration (the event loop that runs ` +
      'the engine, the handlers, the runner and the SDK clients)',
  ];
}

function summaryTable({ rows, met }: Summary): string {
  const table = plainTable(
    ['', 'median', 'p95', 'min', 'max', 'IQR', 'target'],
    ['left', 'right', 'right', 'right', 'right', 'right', 'left'],
  );
  for (const row of rows) {
    const s = stats(row.values);
    table.push([
      row.label,
      fmt(s.median),
      fmt(s.p95),
      fmt(s.min),
      fmt(s.max),
      `${fmt(s.q1)}–${fmt(s.q3)}`,
      row.target ? `≤ ${TARGET_MS}: ${met ? 'met' : 'NOT met'}` : '',
    ]);
  }
  return table.toString();
}

/** Each step's subtotal by kind, with its four biggest calls. */
function whereTable({ profile }: Summary): string {
  const table = plainTable(
    ['step', 'kind', 'calls', 'ms', 'biggest calls (count × ms/call)'],
    ['left', 'left', 'right', 'right', 'left'],
  );
  for (const subtotal of profile.filter((row) => row.call === '')) {
    const detail = profile
      .filter(
        (row) =>
          row.call !== '' &&
          row.step === subtotal.step &&
          row.kind === subtotal.kind &&
          row.msPerIteration > 0,
      )
      .slice(0, 4)
      .map(
        (row) =>
          `${row.call.replace(/^(runs|artefacts)\./, '')} ${fmt(row.perIteration)}×` +
          `${fmt(row.msPerIteration / row.perIteration)}`,
      );
    if (subtotal.msPerIteration < 0.05 && subtotal.perIteration === 0) continue;
    table.push([
      subtotal.step,
      subtotal.kind,
      subtotal.kind === 'other' ? '' : fmt(subtotal.perIteration),
      fmt(subtotal.msPerIteration),
      detail.join(', '),
    ]);
  }
  return table.toString();
}

function traceTable({ trace }: Summary): string {
  const table = plainTable(['step', '+ms', 'ms', 'call'], ['left', 'right', 'right', 'left']);
  for (const entry of trace) table.push([entry.step, fmt(entry.atMs), fmt(entry.ms), entry.call]);
  return table.toString();
}
