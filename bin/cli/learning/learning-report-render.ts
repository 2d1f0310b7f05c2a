/**
 * What learning did, in words and a table: a run's `learning-report.json` (`ralph show`) and
 * a project's pooled comparison (`ralph learning PROJECT`).
 */
import type {
  EffectFigures,
  EffectReport,
  RunLearningReport,
} from '../../../lambdas/core/schemas/learning.js';
import Table from 'cli-table3';
import { tableStyle } from '../table-style.js';

/** With and without injection, one row per side, and the conclusion under it. */
export function effectTable(report: EffectReport): string {
  const row = (side: string, figures: EffectFigures) => [
    side,
    String(figures.tasks),
    figures.passRate === undefined ? '–' : `${Math.round(figures.passRate * 100)}%`,
    figures.meanIterationsToPass === undefined ? '–' : figures.meanIterationsToPass.toFixed(2),
  ];
  const rows = [
    row('with injection', report.groups.injected),
    row('control (nothing given)', report.groups.control),
    row('nothing to inject', report.groups.nothing),
  ];
  const table = new Table({
    head: ['tasks', 'n', 'pass rate', 'iterations to pass'],
    style: tableStyle(),
  });
  table.push(...rows);
  return `${table.toString()}\n${report.conclusion}`;
}

/** The run's block under `ralph show RUN`. */
export function runLearningBlock(report: RunLearningReport): string {
  const list = (ids: readonly string[]) => (ids.length === 0 ? 'none' : ids.join(', '));
  return [
    `learning  ${report.hints} hint(s); rules created: ${list(report.rulesCreated)}; promoted again: ${list(report.rulesPromoted)}`,
    `          patterns added: ${list(report.patternsAdded)}; merged: ${list(report.patternsMerged)}; whose uses were counted: ${report.patternsUsed}`,
    effectTable(report.effect),
  ].join('\n');
}
