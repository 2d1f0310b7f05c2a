/**
 * What a plan carries of what was learned (plan.json `learning`): the run's relevant hints,
 * the frozen project rules of the task's category, and the registry patterns found for the
 * task and its last error, or nothing at all for a task in the control group. The runner
 * renders it (render-learning.ts), where the repository's files are known.
 */
import type { LearningConfig } from '../schemas/learning-config.js';
import type {
  LearningSnapshot,
  PlanLearning,
  RegistryPattern,
  RunHint,
} from '../schemas/learning.js';
import { isControlTask } from './control-group.js';
import { relevantHints } from './hints.js';
import { taskCategory } from './task-category.js';

/** Rules a plan carries beyond `maxRules`, for the runner to fill from when some match no file. */
const SPARE_RULES = 2;
/** Candidates asked of the retriever before the success-rate floor. */
const CANDIDATES = 50;

/** Full-text retrieval over the snapshot's patterns (the PatternRetriever port's `search`). */
export type SearchPatterns = (
  query: string,
  limit: number,
) => readonly { pattern: RegistryPattern; score: number }[];

export interface LearningPlanInput {
  config: LearningConfig;
  runId: string;
  task: { taskId: string; story: { title: string; description: string } };
  /** Files the task's earlier attempts touched. */
  taskPaths: readonly string[];
  /** The placeless signature of the task's last error, when it failed before. */
  lastError: string | undefined;
  hints: readonly RunHint[];
  snapshot: LearningSnapshot | undefined;
  search: SearchPatterns | undefined;
}

/**
 * @example
 * planLearning({ config: run.config.learning, runId, task, taskPaths: [], lastError, hints, snapshot, search });
 * // { category: 'feature', control: false, hints: [...], rules: [...], patterns: [...] }
 */
export function planLearning(input: LearningPlanInput): PlanLearning {
  const { config, task } = input;
  const category = taskCategory(task.story);
  const control = isControlTask(input.runId, task.taskId, config.control);
  if (control) return { category, control, hints: [], rules: [], patterns: [] };
  const hints = relevantHints(
    input.hints,
    { category, scopePaths: input.taskPaths },
    config.maxHints,
  );
  const rules = (input.snapshot?.rules ?? [])
    .filter((rule) => rule.status === 'active' && rule.category === category)
    .sort(
      (left, right) =>
        right.promotionCount - left.promotionCount || left.ruleId.localeCompare(right.ruleId),
    )
    .slice(0, config.maxRules + SPARE_RULES);
  return {
    category,
    control,
    hints: hints.map((hint) => ({ hintId: hint.hintId, text: hint.text })),
    rules: rules.map((rule) => ({
      ruleId: rule.ruleId,
      ...(rule.scopePattern === undefined ? {} : { scopePattern: rule.scopePattern }),
      text: rule.constraint,
    })),
    patterns: registryPatterns(input),
  };
}

/**
 * The registry's part: candidates for the task's words and last error, those at or above
 * the success-rate floor, the best `topK` of them, and anti-patterns besides up to
 * `maxInjected` in all (cross-loop-learning.md: top_k_patterns 5, max_patterns_injected 10,
 * include_anti_patterns).
 */
function registryPatterns(input: LearningPlanInput): PlanLearning['patterns'] {
  const { config, search } = input;
  if (!search || config.maxInjected === 0) return [];
  const query = [input.task.story.title, input.task.story.description, input.lastError ?? '']
    .join('\n')
    .trim();
  if (query === '') return [];
  // A project's pattern is usually in the organisation's registry too: one of them is enough.
  const seen = new Set<string>();
  const eligible: RegistryPattern[] = [];
  for (const { pattern } of search(query, CANDIDATES)) {
    if (pattern.successRate < config.minSuccessRate || seen.has(pattern.patternId)) continue;
    seen.add(pattern.patternId);
    eligible.push(pattern);
  }
  const best = eligible.filter((pattern) => pattern.type !== 'anti').slice(0, config.topK);
  const anti = eligible.filter((pattern) => pattern.type === 'anti');
  return [...best, ...anti].slice(0, config.maxInjected).map((pattern) => ({
    patternId: pattern.patternId,
    scope: pattern.scope,
    type: pattern.type,
    text: patternText(pattern),
  }));
}

/** A pattern as the prompt shows it: what, how well it did, where it came from. */
function patternText(pattern: RegistryPattern): string {
  const rate =
    pattern.uses === 0
      ? 'not yet used since it was learned'
      : `${Math.round(pattern.successRate * 100)}% success over ${pattern.uses} use(s)`;
  const runs = pattern.sources.map((source) => source.runId);
  const from = `${runs.slice(0, 3).join(', ')}${runs.length > 3 ? ` and ${runs.length - 3} more` : ''}`;
  const code = pattern.template
    ? `\n\n\`\`\`${pattern.template.language}\n${pattern.template.code}\n\`\`\``
    : '';
  return `**${pattern.title}** (${rate}; learned in ${from})\n${pattern.body}${code}`;
}
