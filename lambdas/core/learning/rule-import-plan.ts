/**
 * What importing a bundle's project rules changes, decided before anything is written, as
 * for its patterns (import-plan.ts). A rule's promotions are counted over its source hints
 * (`<runId>/<hintId>`): summed when the two sides share no hint, else the side with more
 * promotions is kept, so a rule exported and imported back is not counted twice. A
 * deprecation on either side stands: a person decided it.
 */
import type { ProjectRule } from '../schemas/learning.js';
import { canonicalJson } from '../patterns/pattern-set-versions.js';

export interface RuleImportOptions {
  /** The project every rule goes to; absent, each rule goes to its own project. */
  projectId?: string;
  /** Projects rules may go to without `projectId` (those a listing finds). Absent: every one. */
  knownProjects?: readonly string[];
}

export interface RuleImportPlan {
  added: ProjectRule[];
  merged: { rule: ProjectRule; expectedVersion: number }[];
  skipped: { projectId: string; ruleId: string; reason: string }[];
}

const keyOf = (rule: Pick<ProjectRule, 'projectId' | 'ruleId'>) =>
  `${rule.projectId} ${rule.ruleId}`;

/**
 * @example
 * planRuleImport(await store.listRules('shop'), bundle.rules ?? [], { projectId: 'shop' });
 */
export function planRuleImport(
  existing: readonly ProjectRule[],
  incoming: readonly ProjectRule[],
  options: RuleImportOptions,
): RuleImportPlan {
  const stored = new Map(existing.map((rule) => [keyOf(rule), rule]));
  const known = options.knownProjects && new Set(options.knownProjects);
  const plan: RuleImportPlan = { added: [], merged: [], skipped: [] };
  const pending = new Map<string, ProjectRule>();
  for (const rule of incoming) {
    const moved = { ...rule, projectId: options.projectId ?? rule.projectId };
    const key = keyOf(moved);
    if (!options.projectId && known && !known.has(moved.projectId)) {
      plan.skipped.push({
        projectId: moved.projectId,
        ruleId: rule.ruleId,
        reason: `project ${moved.projectId} is not one of this data's (${[...known].join(', ') || 'none'}): import it with --scope project:<id>`,
      });
      continue;
    }
    const base = pending.get(key) ?? stored.get(key);
    const next = base ? mergeRules(base, moved) : { ...moved, version: 1 };
    if (base && sameContent(next, base))
      plan.skipped.push({
        projectId: moved.projectId,
        ruleId: rule.ruleId,
        reason: 'already present',
      });
    else pending.set(key, next);
  }
  for (const [key, rule] of pending) {
    const before = stored.get(key);
    if (before) plan.merged.push({ rule, expectedVersion: before.version });
    else plan.added.push(rule);
  }
  return plan;
}

const sameContent = (a: ProjectRule, b: ProjectRule) =>
  canonicalJson({ ...a, version: 0 }) === canonicalJson({ ...b, version: 0 });

function mergeRules(stored: ProjectRule, incoming: ProjectRule): ProjectRule {
  const storedHints = new Set(stored.sourceHints);
  const newHints = incoming.sourceHints.filter((hint) => !storedHints.has(hint));
  const shareAHint = newHints.length < incoming.sourceHints.length;
  const promotionCount = shareAHint
    ? Math.max(stored.promotionCount, incoming.promotionCount)
    : stored.promotionCount + incoming.promotionCount;
  const later = Date.parse(incoming.lastSeen) > Date.parse(stored.lastSeen) ? incoming : stored;
  const deprecated = [stored, incoming].find((rule) => rule.status === 'deprecated');
  const { scopePattern: _scope, deprecatedReason: _reason, ...rest } = stored;
  return {
    ...rest,
    category: later.category,
    ...(later.scopePattern === undefined ? {} : { scopePattern: later.scopePattern }),
    issue: later.issue,
    constraint: later.constraint,
    sourceHints: [...stored.sourceHints, ...newHints],
    promotionCount,
    firstSeen:
      Date.parse(incoming.firstSeen) < Date.parse(stored.firstSeen)
        ? incoming.firstSeen
        : stored.firstSeen,
    lastSeen: later.lastSeen,
    status: deprecated ? 'deprecated' : 'active',
    ...(deprecated?.deprecatedReason === undefined
      ? {}
      : { deprecatedReason: deprecated.deprecatedReason }),
  };
}
