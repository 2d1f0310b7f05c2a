/**
 * The one HTML page both the served dashboard and the written report are: the layout's
 * sections and charts (titles and thresholds as DASHBOARD_SECTIONS names them), the runs in
 * view, uPlot and the drawing script inline, and the data as JSON. Nothing is fetched from
 * elsewhere; a served page only polls its own server for fresh data.
 */
import { DASHBOARD_SECTIONS } from '../../../lambdas/core/observability/dashboard-layout.js';
import type { DashboardData } from './dashboard-data.js';
import { pageAssets } from './page-assets.js';

export interface PageInput {
  data: DashboardData;
  /** The URL the page polls for fresh data (a served page); absent in a report. */
  poll?: string;
  /** The first line under the title. */
  status: string;
  /** HTML placed after the charts (a report's summary and receipts), already escaped. */
  appendix?: string;
}

export function dashboardPage({ data, poll, status, appendix = '' }: PageInput): string {
  const assets = pageAssets();
  const boot = { data, ...(poll ? { poll } : {}) };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ralph · ${escapeHtml(data.title)}</title>
<style>${assets.uplotStyle}</style>
<style>${assets.pageStyle}</style>
</head>
<body>
<h1>ralph · ${escapeHtml(data.title)}</h1>
${poll && data.view.kind !== 'all' ? '<nav><a href="./">all runs</a></nav>' : ''}
<p id="status">${escapeHtml(status)}</p>
${sectionsHtml()}
<h2>Runs</h2>
<table id="runs"><thead><tr><th>run</th><th>project</th><th>status</th><th>iterations</th><th>stories passed</th><th>created</th><th>ended</th></tr></thead><tbody></tbody></table>
${appendix}
<script>window.RALPH_DASHBOARD = ${scriptJson(boot)};</script>
<script>${assets.uplotScript}</script>
<script>${assets.drawScript}</script>
</body>
</html>
`;
}

function sectionsHtml(): string {
  return DASHBOARD_SECTIONS.map(
    (section) => `<section>
<h2>${escapeHtml(section.title)}</h2>
<div class="charts">
${section.charts
  .map((chart) => {
    const thresholds = (chart.thresholds ?? [])
      .map((threshold) => `${threshold.label} ${threshold.value}`)
      .join(' · ');
    return `<figure data-chart="${escapeHtml(chart.id)}"><h3>${escapeHtml(chart.title)}</h3>${
      thresholds ? `<div class="thresholds">${escapeHtml(thresholds)}</div>` : ''
    }<div class="plot"></div></figure>`;
  })
  .join('\n')}
</div>
</section>`,
  ).join('\n');
}

/** Text as HTML (element content or a quoted attribute). */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** JSON that cannot end the <script> element it sits in (a stored `</script>` in a title). */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll('<', '\\u003c')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
}
