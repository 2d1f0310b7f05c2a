/**
 * `ralph eval calibrate` for people: what changed in the settings, the train score, and
 * the test file's agreement with the starting and the fitted settings side by side.
 */
import Table from 'cli-table3';
import type { QusSettings } from '../../lambdas/core/schemas/qus.js';
import type { FitResult } from '../../lambdas/core/calibration/fit-settings.js';
import type { LabelAgreement } from '../../lambdas/core/calibration/label-agreement.js';
import { agreementRows, figure, matchingLines } from './label-agreement-render.js';
import { tableStyle } from './table-style.js';

/** What `ralph eval calibrate --json` prints. */
export interface CalibrationReport {
  train: string;
  test: string;
  /** Where the pattern set with the fitted settings was written; `null` without --out. */
  out: string | null;
  fit: FitResult;
  /** The test file's agreement with the starting settings and with the fitted ones. */
  onTest: { start: LabelAgreement; fitted: LabelAgreement };
}

const show = (value: unknown): string =>
  Array.isArray(value)
    ? value.join(', ') || '(none)'
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);

/** One line per setting the fit changed. */
function settingLines(start: QusSettings, fitted: QusSettings): string[] {
  const lines = (Object.keys(fitted) as (keyof QusSettings)[])
    .filter((key) => JSON.stringify(start[key]) !== JSON.stringify(fitted[key]))
    .map((key) => `  ${key}: ${show(start[key])} → ${show(fitted[key])}`);
  return lines.length === 0 ? ['  (none: no setting beat the start on the train file)'] : lines;
}

/**
 * The calibration report's lines.
 *
 * @example
 * for (const line of renderCalibration(report)) output.line(line);
 */
export function renderCalibration(report: CalibrationReport): string[] {
  const { fit, onTest } = report;
  const table = new Table({
    head: ['criterion', 'labelled', 'κ start', 'κ fitted', 'precision', 'recall', 'AUC'],
    colAligns: ['left', 'right', 'right', 'right', 'right', 'right', 'right'],
    style: tableStyle(),
  });
  const fitted = new Map(agreementRows(onTest.fitted).map((row) => [row.name, row]));
  for (const start of agreementRows(onTest.start)) {
    const after = fitted.get(start.name);
    const pair = (pick: (row: typeof start) => number | null) =>
      `${figure(pick(start))} → ${after ? figure(pick(after)) : '—'}`;
    table.push([
      start.name,
      String(start.labelled),
      figure(start.kappa),
      after ? figure(after.kappa) : '—',
      pair((row) => row.precision),
      pair((row) => row.recall),
      pair((row) => row.auc),
    ]);
  }
  return [
    `Fitted on ${report.train} in ${fit.rounds} rounds (${fit.evaluated} settings tried): κ any syntactic defect ${figure(fit.startScore.kappa)} → ${figure(fit.fittedScore.kappa)}, AUC ${figure(fit.startScore.auc)} → ${figure(fit.fittedScore.auc)}`,
    'Settings changed:',
    ...settingLines(fit.start, fit.fitted),
    '',
    `On ${report.test} (start → fitted):`,
    ...matchingLines(onTest.start),
    table.toString(),
    report.out === null
      ? 'Nothing written: pass --out FILE to write the pattern set with the fitted settings.'
      : `Wrote the pattern set with the fitted settings to ${report.out}`,
  ];
}
