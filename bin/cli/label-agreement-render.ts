/**
 * The cheap mode against human labels, for people: one table row per labelled criterion and
 * for "any syntactic defect" and "any defect" (confusion counts, precision, recall, Cohen's
 * kappa, AUC of the gestalt), what was left unmatched, and the labelled defects by kind.
 */
import Table from 'cli-table3';
import type {
  CriterionAgreement,
  LabelAgreement,
} from '../../lambdas/core/calibration/label-agreement.js';
import { tableStyle } from './table-style.js';

/** A figure with two decimals, or a dash for one that cannot be computed. */
export const figure = (value: number | null): string => (value === null ? '—' : value.toFixed(2));

/** The criterion rows, then the two aggregates. */
export function agreementRows(agreement: LabelAgreement): CriterionAgreement[] {
  return [
    ...agreement.criteria,
    ...(agreement.anySyntactic ? [agreement.anySyntactic] : []),
    agreement.anyDefect,
  ];
}

const ids = (list: readonly string[], max = 8): string =>
  list.length <= max
    ? list.join(', ')
    : `${list.slice(0, max).join(', ')}, … (${list.length - max} more)`;

/** What was matched, and everything that was not: never dropped without a word. */
export function matchingLines(agreement: LabelAgreement): string[] {
  const lines = [
    `Human labels: ${agreement.labels} · matched by ${agreement.matchBy} · ${agreement.matched} of ${agreement.stories} stories labelled`,
  ];
  if (agreement.unlabelledStories.length > 0)
    lines.push(
      `  ${agreement.unlabelledStories.length} stories have no label row: ${ids(agreement.unlabelledStories)}`,
    );
  if (agreement.unmatchedRows.length > 0)
    lines.push(
      `  ${agreement.unmatchedRows.length} label rows name no story: ${ids(agreement.unmatchedRows.map((row) => `line ${row.line} (${row.key})`))}`,
    );
  for (const renamed of agreement.renamedIds)
    lines.push(
      `  line ${renamed.line}: the id ${renamed.id} repeats an earlier row's; read as ${renamed.as}`,
    );
  return lines;
}

/** The labelled defects of each row by kind: how many the cheap mode caught. */
function kindLines(rows: readonly CriterionAgreement[]): string[] {
  const lines: string[] = [];
  for (const row of rows.filter((each) => each.criteria.length === 1 && each.kinds.length > 0))
    lines.push(
      `  ${row.name}: ${row.kinds.map((kind) => `${kind.kind} ${kind.detected}/${kind.detected + kind.missed}`).join(', ')}`,
    );
  return lines.length === 0 ? [] : ['Labelled defects by kind (detected / labelled):', ...lines];
}

/**
 * The agreement table with its matching and kind lines.
 *
 * @example
 * for (const line of renderLabelAgreement(agreement)) output.line(line);
 */
export function renderLabelAgreement(agreement: LabelAgreement): string[] {
  const table = new Table({
    head: [
      'criterion',
      'labelled',
      'defects',
      'tp',
      'fp',
      'fn',
      'tn',
      'precision',
      'recall',
      'κ',
      'AUC',
    ],
    colAligns: ['left', ...Array<'right'>(10).fill('right')],
    style: tableStyle(),
  });
  for (const row of agreementRows(agreement)) {
    const { tp, fp, fn, tn } = row.confusion;
    table.push([
      row.name,
      String(row.labelled),
      String(tp + fn),
      ...[tp, fp, fn, tn].map(String),
      figure(row.precision),
      figure(row.recall),
      figure(row.kappa),
      figure(row.auc),
    ]);
  }
  return [
    ...matchingLines(agreement),
    table.toString(),
    "  κ: Cohen's kappa; AUC: of the cheap gestalt as a defect score (lower = more defective); — : not computable (no story, or one class only)",
    ...kindLines(agreementRows(agreement)),
  ];
}
