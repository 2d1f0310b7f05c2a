/**
 * The prompt's learning sections, rendered by the runner, which holds the working copy: a
 * project rule whose scope matches no file of the repository any more is skipped here (at
 * read time, learned-rules.md), and what was rendered is reported with the iteration, so
 * that its outcome is counted for exactly what the agent was given.
 */
import type { PromptTemplates } from '../prompts/templates.js';
import type { Injected, IterationLearning, PlanLearning } from '../schemas/learning.js';
import { scopeMatchesAny } from './scope.js';

export interface RenderedLearning {
  /** The sections, in the order the prompt shows them; empty when there is nothing. */
  text: string;
  learning: IterationLearning;
}

/**
 * @example
 * renderLearning(plan.learning, { repositoryFiles, maxRules: 10, templates });
 * // { text: '## Project rules\n…', learning: { control: false, injected: [{ kind: 'rule', id: 'r-tests-…' }], … } }
 */
export function renderLearning(
  planned: PlanLearning,
  context: { repositoryFiles: readonly string[]; maxRules: number; templates: PromptTemplates },
): RenderedLearning {
  const { templates } = context;
  const matching = planned.rules.filter((rule) =>
    scopeMatchesAny(rule.scopePattern, context.repositoryFiles),
  );
  const rules = matching.slice(0, context.maxRules);
  const skippedRules = planned.rules
    .filter((rule) => !matching.includes(rule))
    .map((rule) => rule.ruleId);
  const sections: string[] = [];
  if (rules.length > 0)
    sections.push(
      templates.render('learning-rules', {
        rules: rules.map((rule) => `- ${rule.text}`).join('\n'),
      }),
    );
  if (planned.hints.length > 0)
    sections.push(
      templates.render('learning-hints', {
        hints: planned.hints.map((hint) => `- ${hint.text}`).join('\n'),
      }),
    );
  if (planned.patterns.length > 0)
    sections.push(
      templates.render('learning-patterns', {
        patterns: planned.patterns
          .map((pattern, index) => `${index + 1}. ${pattern.text.replace(/\n/g, '\n   ')}`)
          .join('\n'),
      }),
    );
  const injected: Injected[] = [
    ...rules.map((rule) => ({ kind: 'rule' as const, id: rule.ruleId })),
    ...planned.hints.map((hint) => ({ kind: 'hint' as const, id: hint.hintId })),
    ...planned.patterns.map((pattern) => ({
      kind: 'pattern' as const,
      id: pattern.patternId,
      scope: pattern.scope,
    })),
  ];
  return {
    text: sections.map((section) => section.trim()).join('\n\n'),
    learning: { category: planned.category, control: planned.control, injected, skippedRules },
  };
}
