/**
 * `ralph rules list|show|deprecate|stats`: the project rules runs promote at their end
 * (learned-rules.md, stage 0B), in the local data directory.
 */
import { InvalidTransitionError, NotFoundError } from '../../../lambdas/core/errors.js';
import { analyzeRules } from '../../../lambdas/core/learning/rule-analysis.js';
import type { ProjectRule } from '../../../lambdas/core/schemas/learning.js';
import type { BackendOptions } from '../backend/with-backend.js';
import { EXIT } from '../exit-codes.js';
import type { Output } from '../output.js';
import { checkedProject, withLearning, type LearningSession } from './learning-session.js';
import { analysisLines, ruleLines, rulesTable } from './rules-render.js';

export interface RulesOptions extends BackendOptions {
  /** One project; default every project of a run or a route. */
  project?: string;
}

async function rulesOf(
  session: LearningSession,
  options: RulesOptions,
): Promise<{ projects: string[]; rules: ProjectRule[] }> {
  const projects = options.project ? [checkedProject(options.project)] : await session.projects();
  const lists = await Promise.all(projects.map((id) => session.store.listRules(id)));
  return { projects, rules: lists.flat() };
}

export async function rulesListCommand(options: RulesOptions, output: Output): Promise<number> {
  if (options.project) checkedProject(options.project);
  return withLearning('rules list', options, async (session) => {
    const { projects, rules } = await rulesOf(session, options);
    output.line(
      rules.length === 0
        ? `no project rules yet in ${projects.join(', ') || 'any project'}: runs promote them at their end`
        : rulesTable(rules),
    );
    output.data({ projects, rules });
    return EXIT.ok;
  });
}

async function storedRule(
  session: LearningSession,
  ruleId: string,
  projectId: string,
): Promise<ProjectRule> {
  const rule = await session.store.getRule(projectId, ruleId);
  if (!rule)
    throw new NotFoundError(
      `project ${projectId} has no rule ${ruleId}: \`ralph rules list --project ${projectId}\` shows its rules`,
    );
  return rule;
}

export async function rulesShowCommand(
  ruleId: string,
  options: RulesOptions & { project: string },
  output: Output,
): Promise<number> {
  const projectId = checkedProject(options.project);
  return withLearning('rules show', options, async (session) => {
    const rule = await storedRule(session, ruleId, projectId);
    for (const line of ruleLines(rule)) output.line(line);
    output.data(rule);
    return EXIT.ok;
  });
}

export async function rulesDeprecateCommand(
  ruleId: string,
  options: RulesOptions & { project: string; reason?: string },
  output: Output,
): Promise<number> {
  const projectId = checkedProject(options.project);
  return withLearning('rules deprecate', options, async (session) => {
    const rule = await storedRule(session, ruleId, projectId);
    if (rule.status === 'deprecated')
      throw new InvalidTransitionError(
        `rule ${ruleId} of project ${projectId} is deprecated already${rule.deprecatedReason ? ` (${rule.deprecatedReason})` : ''}`,
      );
    // Saved over the version read: a rule a run promoted again meanwhile is refused (exit 4).
    const saved = await session.store.saveRule(
      {
        ...rule,
        status: 'deprecated',
        ...(options.reason ? { deprecatedReason: options.reason } : {}),
      },
      rule.version,
    );
    output.line(
      `rule ${ruleId} of project ${projectId} deprecated (version ${saved.version}): runs no longer get it`,
    );
    output.data(saved);
    return EXIT.ok;
  });
}

export async function rulesStatsCommand(options: RulesOptions, output: Output): Promise<number> {
  if (options.project) checkedProject(options.project);
  return withLearning('rules stats', options, async (session) => {
    const { projects, rules } = await rulesOf(session, options);
    const analysis = analyzeRules(rules);
    for (const line of analysisLines(projects, analysis)) output.line(line);
    output.data({ projects, ...analysis });
    return EXIT.ok;
  });
}
