/**
 * `ralph patterns export|import`: registry patterns (and the projects' rules) to a bundle
 * file and back (lambdas/core/learning/bundle.ts), for backups and for sharing between
 * teams. An import reads and checks the whole bundle before the store is opened.
 */
import { bundleOf, type PatternBundle } from '../../../lambdas/core/learning/bundle.js';
import { planImport } from '../../../lambdas/core/learning/import-plan.js';
import { projectOfScope } from '../../../lambdas/core/learning/pattern-query.js';
import {
  planRuleImport,
  type RuleImportPlan,
} from '../../../lambdas/core/learning/rule-import-plan.js';
import type { RegistryScope } from '../../../lambdas/core/schemas/learning.js';
import type { BackendOptions } from '../backend/with-backend.js';
import { EXIT } from '../exit-codes.js';
import type { Output } from '../output.js';
import { checkBundleTarget, readBundleFile, writeBundleFile } from './bundle-file.js';
import {
  checkedScope,
  refuseEndpoint,
  withLearning,
  type LearningSession,
} from './learning-session.js';
import { patternsIn, scopesOf, type ScopeOptions } from './patterns-commands.js';
import { importLines } from './patterns-render.js';

export interface PatternsExportOptions extends ScopeOptions {
  /** The bundle file to write. */
  output: string;
  force?: boolean;
}

export async function patternsExportCommand(
  options: PatternsExportOptions,
  output: Output,
): Promise<number> {
  refuseEndpoint('patterns export', options);
  options.scope?.forEach(checkedScope);
  await checkBundleTarget(options.output, options.force === true);
  return withLearning('patterns export', options, async (session) => {
    const scopes = await scopesOf(options, session);
    const projects = scopes.flatMap((scope) => projectOfScope(scope) ?? []);
    const rules = (await Promise.all(projects.map((id) => session.store.listRules(id)))).flat();
    const bundle = bundleOf({
      exportedAt: session.now(),
      scopes,
      ...(projects.length === 1 ? { projectId: projects[0] } : {}),
      patterns: await patternsIn(session, scopes),
      ...(projects.length > 0 ? { rules } : {}),
    });
    await writeBundleFile(options.output, bundle);
    output.line(
      `exported ${bundle.patterns.length} patterns and ${rules.length} rules of ${scopes.join(', ')} to ${options.output}`,
    );
    output.data({
      output: options.output,
      scopes,
      patterns: bundle.patterns.length,
      rules: rules.length,
    });
    return EXIT.ok;
  });
}

export interface PatternsImportOptions extends BackendOptions {
  input: string;
  /** Where every pattern goes (`org` or `project:<id>`); default each pattern's own scope. */
  scope?: string;
}

export async function patternsImportCommand(
  options: PatternsImportOptions,
  output: Output,
): Promise<number> {
  refuseEndpoint('patterns import', options);
  const scope = options.scope === undefined ? undefined : checkedScope(options.scope);
  // The whole bundle is read and checked before the store is opened: a bad one writes nothing.
  const { bundle, digest } = await readBundleFile(options.input);
  return withLearning('patterns import', options, async (session) => {
    const knownProjects = await session.projects();
    const knownScopes = await session.scopes();
    const targets = scope ? [scope] : knownScopes;
    const patterns = planImport(await patternsIn(session, targets), bundle, {
      ...(scope ? { scope } : {}),
      now: session.now(),
      bundleDigest: digest,
      knownScopes,
    });
    const rules = await planRules(session, bundle.rules ?? [], scope, knownProjects);
    for (const pattern of patterns.added) await session.store.savePattern(pattern, undefined);
    for (const { pattern, expectedVersion } of patterns.merged)
      await session.store.savePattern(pattern, expectedVersion);
    for (const rule of rules.added) await session.store.saveRule(rule, undefined);
    for (const { rule, expectedVersion } of rules.merged)
      await session.store.saveRule(rule, expectedVersion);
    output.line(`imported ${options.input} (${digest})`);
    for (const line of importLines(patterns, rules)) output.line(line);
    output.data({ input: options.input, digest, patterns, rules });
    return EXIT.ok;
  });
}

/** A bundle's rules go to their projects, or to the project of `--scope project:<id>`. */
async function planRules(
  session: LearningSession,
  incoming: NonNullable<PatternBundle['rules']>,
  scope: RegistryScope | undefined,
  knownProjects: readonly string[],
): Promise<RuleImportPlan> {
  if (scope === 'org')
    return {
      added: [],
      merged: [],
      skipped: incoming.map((rule) => ({
        projectId: rule.projectId,
        ruleId: rule.ruleId,
        reason: 'rules belong to a project: --scope org imports none (use --scope project:<id>)',
      })),
    };
  const projectId = scope && projectOfScope(scope);
  const projects = projectId ? [projectId] : knownProjects;
  const existing = (await Promise.all(projects.map((id) => session.store.listRules(id)))).flat();
  return planRuleImport(existing, incoming, projectId ? { projectId } : { knownProjects });
}
