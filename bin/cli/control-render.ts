import { tableStyle } from './table-style.js';
import Table from 'cli-table3';
import type { IterationRecord } from '../../lambdas/core/schemas/iteration.js';

const signedInt = (value: number | undefined): string =>
  value === undefined ? '—' : value > 0 ? `+${value}` : value < 0 ? `−${-value}` : '0';

/**
 * Loop control per iteration: the mode it ran in, what it really did, and what the
 * supervisor and the stagnation level made of it. Undefined when no iteration has it.
 */
export function controlTable(iterations: readonly IterationRecord[]): string | undefined {
  const controlled = iterations.filter((iteration) => iteration.control);
  if (controlled.length === 0) return undefined;
  const table = new Table({
    head: ['#', 'mode', 'lines', 'meaningful', 'tests ±', 'verdict', 'stagnation', 'risk'],
    style: tableStyle(),
  });
  for (const iteration of controlled) {
    const control = iteration.control;
    if (!control) continue;
    table.push([
      String(iteration.iteration),
      control.mode,
      control.signals.linesChanged === undefined ? '—' : String(control.signals.linesChanged),
      control.signals.meaningfulChange ? 'yes' : 'no',
      signedInt(control.signals.testsPassingDelta),
      `${control.verdict.verdict} (${control.verdict.rule})`,
      `${control.stagnation.level} (${control.stagnation.count}/${control.stagnation.threshold})`,
      control.risk === undefined ? '—' : control.risk.score.toFixed(2),
    ]);
  }
  // Every decision that was not "carry on", with its reason in words.
  const reasons = controlled.flatMap((iteration) => {
    const control = iteration.control;
    if (!control) return [];
    return [
      ...(control.verdict.verdict === 'PROCEED'
        ? []
        : [
            `#${iteration.iteration} supervisor ${control.verdict.verdict}: ${control.verdict.reason}`,
          ]),
      ...(control.stagnation.level === 'none'
        ? []
        : [
            `#${iteration.iteration} stagnation ${control.stagnation.level}: ${control.stagnation.diagnostics.summary}`,
          ]),
    ];
  });
  return ['loop control', table.toString(), ...reasons].join('\n');
}

/** One iteration's loop-control decisions with their reasons, for `show --iteration N`. */
export function controlDetail(iteration: IterationRecord): string | undefined {
  const control = iteration.control;
  if (!control) return undefined;
  return [
    `mode        ${control.mode}`,
    `supervisor  ${control.verdict.verdict}: ${control.verdict.reason}`,
    `stagnation  ${control.stagnation.level}: ${control.stagnation.diagnostics.summary}`,
    ...(control.risk
      ? [
          `risk        ${control.risk.score.toFixed(2)}${control.risk.contributions.length > 0 ? ` (${control.risk.contributions.map((c) => c.signal).join(', ')})` : ''}`,
        ]
      : []),
  ].join('\n');
}
