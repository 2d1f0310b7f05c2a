/** How `ralph rules` shows project rules to people (`--json` carries the rules). */
import Table from 'cli-table3';
import type { RuleAnalysis } from '../../../lambdas/core/learning/rule-analysis.js';
import type { ProjectRule } from '../../../lambdas/core/schemas/learning.js';
import { tableStyle } from '../table-style.js';

/** One row per rule: what it is about and how often runs promoted it. */
export function rulesTable(rules: readonly ProjectRule[]): string {
  const table = new Table({
    head: ['project', 'rule', 'category', 'status', 'promoted', 'last seen', 'constraint'],
    style: tableStyle(),
  });
  for (const rule of rules)
    table.push([
      rule.projectId,
      rule.ruleId,
      rule.category,
      rule.status,
      String(rule.promotionCount),
      rule.lastSeen,
      rule.constraint,
    ]);
  return table.toString();
}

/** One rule, field by field. */
export function ruleLines(rule: ProjectRule): string[] {
  const field = (name: string, value: string) => `  ${name.padEnd(11)} ${value}`;
  return [
    `rule ${rule.ruleId} of project ${rule.projectId} (version ${rule.version})`,
    field(
      'status',
      rule.status === 'deprecated'
        ? `deprecated${rule.deprecatedReason ? `: ${rule.deprecatedReason}` : ''}`
        : 'active',
    ),
    field('category', rule.category),
    field('files', rule.scopePattern ?? 'every file'),
    field('issue', `${rule.issue.class}: ${rule.issue.signature}`),
    field('constraint', rule.constraint),
    field('promoted', `${rule.promotionCount} time${rule.promotionCount === 1 ? '' : 's'}`),
    field('seen', `${rule.firstSeen} to ${rule.lastSeen}`),
    field('from hints', rule.sourceHints.join(', ')),
  ];
}

/** The analysis view: totals, rules by category, the most promoted. */
export function analysisLines(projects: readonly string[], analysis: RuleAnalysis): string[] {
  return [
    `${projects.length === 1 ? `project ${projects[0]}` : `projects ${projects.join(', ') || 'none'}`}: ${analysis.total} rules (${analysis.active} active, ${analysis.deprecated} deprecated)`,
    ...(analysis.total === 0
      ? []
      : [
          'rules by category:',
          ...analysis.byCategory.map(
            (count) => `  ${count.category.padEnd(14)} ${count.total} (${count.active} active)`,
          ),
          'most promoted:',
          ...analysis.mostPromoted.map(
            (rule) =>
              `  ${rule.projectId} ${rule.ruleId}: ${rule.promotionCount} promotion${rule.promotionCount === 1 ? '' : 's'}${rule.status === 'deprecated' ? ' (deprecated)' : ''}`,
          ),
        ]),
  ];
}
