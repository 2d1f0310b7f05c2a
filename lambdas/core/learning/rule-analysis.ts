/**
 * A project's rules at a glance (learned-rules.md "Phase 6: Script for Analysis"): how many
 * of each task category, and which were promoted most often (the mistakes runs keep making).
 */
import { TASK_CATEGORIES, type ProjectRule, type TaskCategory } from '../schemas/learning.js';

export interface CategoryCount {
  category: TaskCategory;
  total: number;
  active: number;
}

export interface RuleAnalysis {
  total: number;
  active: number;
  deprecated: number;
  /** Categories that have rules, most rules first (then in TASK_CATEGORIES order). */
  byCategory: CategoryCount[];
  /** Most promotions first; ties: the most recently seen first, then by project and id. */
  mostPromoted: ProjectRule[];
}

/**
 * @example
 * analyzeRules(await store.listRules('shop')).mostPromoted[0]?.ruleId;
 */
export function analyzeRules(rules: readonly ProjectRule[], top = 5): RuleAnalysis {
  const active = rules.filter((rule) => rule.status === 'active').length;
  const byCategory = TASK_CATEGORIES.map((category) => {
    const of = rules.filter((rule) => rule.category === category);
    return {
      category,
      total: of.length,
      active: of.filter((rule) => rule.status === 'active').length,
    };
  })
    .filter((count) => count.total > 0)
    // A stable sort keeps TASK_CATEGORIES order among equal counts.
    .sort((a, b) => b.total - a.total);
  const mostPromoted = [...rules]
    .sort(
      (a, b) =>
        b.promotionCount - a.promotionCount ||
        Date.parse(b.lastSeen) - Date.parse(a.lastSeen) ||
        a.projectId.localeCompare(b.projectId) ||
        a.ruleId.localeCompare(b.ruleId),
    )
    .slice(0, top);
  return {
    total: rules.length,
    active,
    deprecated: rules.length - active,
    byCategory,
    mostPromoted,
  };
}
