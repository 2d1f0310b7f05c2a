/** How `ralph patterns` shows registry patterns to people (`--json` carries the patterns). */
import Table from 'cli-table3';
import {
  PATTERN_TYPES,
  type PatternType,
  type RegistryPattern,
} from '../../../lambdas/core/schemas/learning.js';
import type { ImportPlan } from '../../../lambdas/core/learning/import-plan.js';
import type { RuleImportPlan } from '../../../lambdas/core/learning/rule-import-plan.js';
import { tableStyle } from '../table-style.js';

const HEADINGS: Record<PatternType, string> = {
  error: 'Error patterns',
  success: 'Success patterns',
  anti: 'Anti-patterns',
  template: 'Code templates',
};

const percent = (share: number) => `${Math.round(share * 100)}%`;
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * One table per type, in the order the listing gives (selectPatterns), each headed by its
 * count: "Error patterns (2 total):".
 */
export function patternsByType(patterns: readonly RegistryPattern[]): string[] {
  return PATTERN_TYPES.flatMap((type) => {
    const ofType = patterns.filter((pattern) => pattern.type === type);
    if (ofType.length === 0) return [];
    const table = new Table({
      head: ['id', 'scope', 'success', 'uses', 'title'],
      style: tableStyle(),
    });
    for (const pattern of ofType)
      table.push([
        pattern.patternId,
        pattern.scope,
        percent(pattern.successRate),
        String(pattern.uses),
        pattern.title,
      ]);
    return [`${HEADINGS[type]} (${ofType.length} total):`, table.toString()];
  });
}

/** One pattern, every field: what it says, how well it did, where it came from. */
export function patternLines(pattern: RegistryPattern): string[] {
  const field = (name: string, value: string) => `  ${name.padEnd(13)} ${value}`;
  const effect = `${percent(pattern.successRate)} success (${pattern.successes} of ${plural(pattern.uses, 'use')})${
    pattern.averageIterations === undefined
      ? ''
      : `, ${pattern.averageIterations} iterations on average`
  }`;
  return [
    `pattern ${pattern.patternId} (${pattern.scope}, version ${pattern.version})`,
    field('type', pattern.type),
    field('title', pattern.title),
    field('body', pattern.body),
    ...(pattern.category ? [field('category', pattern.category)] : []),
    ...(pattern.issue
      ? [field('issue', `${pattern.issue.class}: ${pattern.issue.signature}`)]
      : []),
    ...(pattern.template
      ? [
          field('template', pattern.template.language),
          ...pattern.template.code.split('\n').map((line) => `                ${line}`),
        ]
      : []),
    field('tags', pattern.tags.join(', ') || 'none'),
    field('effectiveness', effect),
    field('created', pattern.createdAt),
    field('last used', pattern.lastUsedAt ?? 'never'),
    field('updated', pattern.updatedAt),
    `  sources (${pattern.sources.length}):`,
    ...pattern.sources.map(
      (source) =>
        `    ${source.runId} (project ${source.projectId}) ${source.at}${
          source.iterations.length > 0 ? `, iterations ${source.iterations.join(', ')}` : ''
        }${source.bundle ? `, imported from bundle ${source.bundle}` : ''}${
          source.shared
            ? `, shared in ${source.shared.bundle} signed by ${source.shared.keyId}${source.shared.account ? ` (account ${source.shared.account})` : ''}`
            : ''
        }`,
    ),
    `  trend (${pattern.trend.length}):`,
    ...pattern.trend.map(
      (point) => `    ${point.at} ${percent(point.successRate)} after ${plural(point.uses, 'use')}`,
    ),
  ];
}

/** What an import did: counts, then each skip with its reason. */
export function importLines(patterns: ImportPlan, rules: RuleImportPlan): string[] {
  const summary = (
    what: string,
    plan: { added: unknown[]; merged: unknown[]; skipped: unknown[] },
  ) =>
    `${what}: ${plan.added.length} added, ${plan.merged.length} merged, ${plan.skipped.length} skipped`;
  return [
    summary('patterns', patterns),
    ...patterns.added.map((p) => `  added   ${p.scope} ${p.patternId}`),
    ...patterns.merged.map(
      ({ pattern }) => `  merged  ${pattern.scope} ${pattern.patternId} (${pattern.uses} uses)`,
    ),
    ...patterns.skipped.map((s) => `  skipped ${s.scope} ${s.patternId}: ${s.reason}`),
    summary('rules', rules),
    ...rules.added.map((r) => `  added   ${r.projectId} ${r.ruleId}`),
    ...rules.merged.map(({ rule }) => `  merged  ${rule.projectId} ${rule.ruleId}`),
    ...rules.skipped.map((s) => `  skipped ${s.projectId} ${s.ruleId}: ${s.reason}`),
  ];
}
