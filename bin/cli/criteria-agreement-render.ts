import Table from 'cli-table3';
import type { CriterionAgreement } from '../../lambdas/core/gap/criteria-agreement.js';
import { figure } from './figures.js';
import { tableStyle } from './table-style.js';

/**
 * The judge's QUS defects against the cheap mode's, one row per criterion: how many
 * stories each found the defect in, in how many both did, and Cohen's kappa between them
 * (`—` where kappa is undefined: fewer than two stories, or neither mode ever disagreeing
 * with a constant verdict). Without per-criterion verdicts from the judge, one line saying so.
 *
 * @example
 * output.line(criteriaAgreementTable(outcome.dual.criteria));
 */
export function criteriaAgreementTable(rows: readonly CriterionAgreement[]): string {
  if (rows.length === 0)
    return 'QUS criteria: not compared (the judge gave no per-criterion verdicts: no user stories judged)';
  const table = new Table({
    head: ['QUS criterion', 'judge defects', 'cheap defects', 'both', 'κ'],
    style: tableStyle(),
  });
  for (const row of rows)
    table.push([row.criterion, row.judgeDefects, row.cheapDefects, row.both, figure(row.kappa)]);
  return [
    `QUS criteria, judge vs cheap defects on ${rows[0]?.stories ?? 0} stories (κ: Cohen's kappa; uniform and unique are the backlog's, which the judge does not see):`,
    table.toString(),
  ].join('\n');
}
