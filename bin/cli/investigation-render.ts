/**
 * An investigate run's report in `ralph show RUN`: its figures on two lines, then one row per
 * error (verdict, confidence, the pull request or why none). Everything that came from an
 * agent or a code host goes through terminalSafe.
 */
import Table from 'cli-table3';
import type { InvestigationReport } from '../../lambdas/core/schemas/investigation-report.js';
import { tableStyle } from './table-style.js';
import { terminalSafe } from './terminal-text.js';

/** Longest reason shown in a row; the report artefact holds all of it. */
const REASON_CHARS = 80;

/**
 * @example
 * investigationBlock(report);
 * // 'investigation  2 of 3 errors analysed · 1 second pass · corrections 1 of 1 mended · ...'
 */
export function investigationBlock(report: InvestigationReport): string {
  const { corrections, tokens } = report;
  const figures = [
    `${report.errorsAnalysed} of ${report.errors.length} errors analysed`,
    `${report.secondPasses} needed a second pass`,
    `corrections ${corrections.succeeded} of ${corrections.attempted} mended`,
    `${report.pullRequestsOpened.length} pull request(s) opened`,
    `${report.issuesCommented.length} issue comment(s)`,
    `${tokens.input.toLocaleString('en-US')} in / ${tokens.output.toLocaleString('en-US')} out tokens, $${report.costUsd.toFixed(2)}`,
  ];
  const table = new Table({
    head: ['error', 'verdict', 'confidence', 'pull request'],
    style: tableStyle(),
  });
  for (const error of report.errors)
    table.push([
      error.taskId,
      error.verdict ?? '—',
      error.confidence ?? '—',
      error.pullRequest === undefined
        ? `none: ${cut(error.whyNoPullRequest ?? 'no reason recorded')}`
        : `#${error.pullRequest.number} ${error.pullRequest.htmlUrl}${error.pullRequest.draft ? ' (draft)' : ''}`,
    ]);
  return terminalSafe(`investigation  ${figures.join(' · ')}\n${table.toString()}`);
}

function cut(text: string): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length > REASON_CHARS ? `${line.slice(0, REASON_CHARS - 1)}…` : line;
}
