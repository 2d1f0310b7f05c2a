/**
 * `ralph show RUN --html FILE`: one self-contained HTML file a person can attach to a
 * ticket: the run's charts (uPlot and the data inline, nothing fetched), its summary, and
 * what each iteration cost by its receipt.
 */
import type { IterationRecord } from '../../../lambdas/core/schemas/iteration.js';
import type { RunRecord } from '../../../lambdas/core/schemas/run.js';
import type { RunBackend } from '../backend/run-backend.js';
import { dashboardData, storedRuns, type DashboardData } from './dashboard-data.js';
import { dashboardPage, escapeHtml } from './page-html.js';

export interface HtmlReport {
  html: string;
  data: DashboardData;
}

/** `now`: when the report was written (ISO), as its status line says. */
export async function htmlReport(
  backend: RunBackend,
  runId: string,
  now: string,
): Promise<HtmlReport> {
  const view = { kind: 'run', runId } as const;
  const stored = await storedRuns(backend, view);
  const data = await dashboardData(backend, view, stored);
  const { run, iterations } = stored[0]!;
  const html = dashboardPage({
    data,
    status: `report written ${now} · run ${run.status}`,
    appendix: `${summaryTable(run)}\n${receiptsTable(iterations)}`,
  });
  return { html, data };
}

function summaryTable(run: RunRecord): string {
  const rows: [string, string][] = [
    ['run', run.runId],
    ['project', run.project || run.projectId],
    ['status', run.status],
    ['stop reason', run.stopReason ?? ''],
    ['iterations', String(run.iterationsCompleted)],
    ['stories passed', `${run.storiesPassed} of ${run.storiesTotal}`],
    ['branch', run.branchName],
    ['created', run.createdAt],
    ['ended', run.endedAt ?? ''],
  ];
  return `<h2>Summary</h2>
<table id="summary"><tbody>${rows
    .map(([name, value]) => `<tr><th>${escapeHtml(name)}</th><td>${escapeHtml(value)}</td></tr>`)
    .join('')}</tbody></table>`;
}

const RECEIPT_COLUMNS = [
  'iteration',
  'task',
  'role',
  'model',
  'input tokens',
  'output tokens',
  'cache read',
  'cache write',
  'calls',
  'USD',
  'source',
];

/** A line per receipt line; nothing when no iteration has a receipt. */
function receiptsTable(iterations: readonly IterationRecord[]): string {
  const rows = iterations.flatMap((record) =>
    (record.receipt?.lines ?? []).map((line) => [
      String(record.iteration),
      record.taskId,
      line.role,
      line.model,
      String(line.inputTokens),
      String(line.outputTokens),
      String(line.cacheReadTokens),
      String(line.cacheWriteTokens),
      String(line.calls),
      line.costUsd.toFixed(6),
      line.source,
    ]),
  );
  if (rows.length === 0) return '';
  const total = iterations.reduce((sum, record) => sum + (record.receipt?.totalUsd ?? 0), 0);
  const cells = (row: readonly string[], tag: 'td' | 'th') =>
    `<tr>${row.map((cell) => `<${tag}>${escapeHtml(cell)}</${tag}>`).join('')}</tr>`;
  return `<h2>Receipts</h2>
<table id="receipts"><thead>${cells(RECEIPT_COLUMNS, 'th')}</thead><tbody>${rows
    .map((row) => cells(row, 'td'))
    .join('')}</tbody></table>
<p>total ${escapeHtml(total.toFixed(6))} USD</p>`;
}
