/**
 * Stage 0B (shared/design/learned-rules.md): at run end, the run's hints are grouped by
 * (issue key, task category, scope prefix), and a group seen at least `promoteAt` times
 * becomes a project rule, or promotes the rule it already is once more.
 *
 * A group is "seen" each time its issue was resolved (a hint) and each time one of its
 * hints was injected into an iteration that then passed: the design's own narrative counts
 * it that way (a type-hints issue met in phase 3, its hint followed in phase 7, "appeared
 * 2+ times" at run end), and a lesson that held once more is the better evidence.
 */
import type { IterationRecord } from '../schemas/iteration.js';
import type { IssueKey, ProjectRule, RunHint, TaskCategory } from '../schemas/learning.js';
import { fnv1a } from '../shared/fnv.js';
import { issueKeyText } from './issue-key.js';
import { scopePatternOf } from './scope.js';

export interface PromotionInput {
  projectId: string;
  hints: readonly RunHint[];
  /** The run's recorded iterations: which were given a hint, and passed. */
  iterations: readonly IterationRecord[];
  /** The project's rules as stored. */
  existing: readonly ProjectRule[];
  promoteAt: number;
  now: string;
}

export interface Promotion {
  create: ProjectRule[];
  update: { rule: ProjectRule; expectedVersion: number }[];
}

interface HintGroup {
  ruleId: string;
  issue: IssueKey;
  category: TaskCategory;
  scopePattern: string | undefined;
  hints: RunHint[];
  /** Iterations that were given one of the group's hints and passed. */
  confirmations: Set<number>;
}

/**
 * The rules a finished run creates and promotes. Safe to repeat: a rule that already
 * lists every hint of its group is left as it is.
 *
 * @example
 * promoteHints({ projectId, hints, iterations, existing: [], promoteAt: 2, now });
 * // { create: [{ ruleId: 'r-tests-1a2b3c4d', promotionCount: 1, status: 'active', ... }], update: [] }
 */
export function promoteHints(input: PromotionInput): Promotion {
  const groups = hintGroups(input.hints, input.iterations);
  const promotion: Promotion = { create: [], update: [] };
  for (const group of groups) {
    if (group.hints.length + group.confirmations.size < input.promoteAt) continue;
    const sources = group.hints.map((hint) => `${hint.runId}/${hint.hintId}`);
    const stored = input.existing.find((rule) => rule.ruleId === group.ruleId);
    if (!stored) {
      promotion.create.push(newRule(input, group, sources));
      continue;
    }
    const added = sources.filter((source) => !stored.sourceHints.includes(source));
    if (added.length === 0) continue;
    promotion.update.push({
      expectedVersion: stored.version,
      rule: {
        ...stored,
        sourceHints: [...stored.sourceHints, ...added],
        promotionCount: stored.promotionCount + 1,
        lastSeen: input.now,
      },
    });
  }
  return promotion;
}

function hintGroups(
  hints: readonly RunHint[],
  iterations: readonly IterationRecord[],
): HintGroup[] {
  const groups = new Map<string, HintGroup>();
  const groupOfHint = new Map<string, HintGroup>();
  for (const hint of hints) {
    const scopePattern = scopePatternOf(hint.scopePaths);
    const key = [issueKeyText(hint.issue), hint.category, scopePattern ?? ''].join('\u0000');
    let group = groups.get(key);
    if (!group) {
      group = {
        ruleId: `r-${hint.issue.class.replace(/[^A-Za-z0-9]+/g, '-')}-${fnv1a(key)}`,
        issue: hint.issue,
        category: hint.category,
        scopePattern,
        hints: [],
        confirmations: new Set(),
      };
      groups.set(key, group);
    }
    group.hints.push(hint);
    groupOfHint.set(hint.hintId, group);
  }
  for (const record of iterations) {
    if (record.outcome !== 'passed') continue;
    for (const injected of record.learning?.injected ?? [])
      if (injected.kind === 'hint')
        groupOfHint.get(injected.id)?.confirmations.add(record.iteration);
  }
  return [...groups.values()];
}

function newRule(input: PromotionInput, group: HintGroup, sources: string[]): ProjectRule {
  const firstSeen = group.hints.reduce(
    (earliest, hint) => (hint.createdAt < earliest ? hint.createdAt : earliest),
    input.now,
  );
  return {
    projectId: input.projectId,
    ruleId: group.ruleId,
    version: 1,
    category: group.category,
    ...(group.scopePattern === undefined ? {} : { scopePattern: group.scopePattern }),
    issue: group.issue,
    constraint: constraintOf(group),
    sourceHints: sources,
    promotionCount: 1,
    firstSeen,
    lastSeen: input.now,
    status: 'active',
  };
}

/** The lessons the group's hints learned (distinct, oldest first), and what they were about. */
function constraintOf(group: HintGroup): string {
  const lessons = [...new Set(group.hints.map((hint) => hint.lesson).filter(Boolean))];
  const about = `"${issueKeyText(group.issue)}"${group.scopePattern ? ` in ${group.scopePattern}` : ''}`;
  return lessons.length > 0
    ? `${lessons.slice(0, 2).join('; ')} (learned from ${about})`
    : `Avoid ${about}: it failed and was fixed ${group.hints.length} time(s) before`;
}
