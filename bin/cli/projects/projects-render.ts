/** How `ralph projects` shows routes to people (`--json` carries the routes themselves). */
import Table from 'cli-table3';
import type { ProjectRoute } from '../../../lambdas/core/schemas/project-route.js';
import { tableStyle } from '../table-style.js';

const matchText = (route: ProjectRoute): string =>
  route.matches.map((match) => `${match.kind} ${match.key}`).join('\n');

/** One row per project: what it matches, where fixes go, and its limits. */
export function projectsTable(routes: readonly ProjectRoute[]): string {
  const table = new Table({
    head: ['project', 'matches', 'repository', 'base', 'window', 'runs/h', 'open PRs'],
    style: tableStyle(),
  });
  for (const route of routes)
    table.push([
      route.projectId,
      matchText(route),
      route.repo,
      route.baseBranch,
      `${route.investigate.batchWindowSeconds} s`,
      String(route.investigate.maxRunsPerHour),
      String(route.investigate.maxOpenPullRequests),
    ]);
  return table.toString();
}

/** One route, field by field. */
export function projectLines(route: ProjectRoute): string[] {
  const { investigate: settings } = route;
  const host = route.codeHost
    ? `${route.codeHost.owner}/${route.codeHost.name}`
    : 'none (no pull requests)';
  const gates = route.config?.gates.map((gate) => gate.name).join(', ') || 'none';
  return [
    `project ${route.projectId} (version ${route.version}, updated ${route.updatedAt})`,
    `  matches     ${route.matches.map((match) => `${match.kind} "${match.key}"`).join(', ')}`,
    `  repository  ${route.repo} (fixes from ${route.baseBranch})`,
    `  code host   ${host}`,
    `  gates       ${gates}`,
    `  batching    ${settings.batchWindowSeconds} s window, at most ${settings.maxErrorsPerRun} errors per run`,
    `  limits      ${settings.maxRunsPerHour} runs per hour, ${settings.maxOpenPullRequests} open pull requests`,
    `  analysis    ${settings.maxPasses} passes, ${settings.runContextChars} characters of run context`,
    `  no draft PR ${settings.ifDraftUnsupported === 'open-ready' ? 'open a ready one' : 'open none'}${settings.commentOnIssue ? `; comment on issue #${settings.commentOnIssue} when no PR` : ''}`,
  ];
}
