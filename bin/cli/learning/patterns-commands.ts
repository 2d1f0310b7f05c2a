/**
 * `ralph patterns list|show|prune`: the cross-loop registry of the local data
 * directory (cross-loop-learning.md "CLI Usage"). Without `--scope`, every scope there is:
 * the organisation's and each project's (of a run or a project route).
 */
import { NotFoundError, VersionConflictError } from '../../../lambdas/core/errors.js';
import {
  selectPatterns,
  type PatternFilter,
} from '../../../lambdas/core/learning/pattern-query.js';
import { pruneCandidates } from '../../../lambdas/core/learning/prune.js';
import {
  DEFAULT_LEARNING_CONFIG,
  type LearningConfig,
} from '../../../lambdas/core/schemas/learning-config.js';
import type { RegistryPattern, RegistryScope } from '../../../lambdas/core/schemas/learning.js';
import type { BackendOptions } from '../backend/with-backend.js';
import { EXIT } from '../exit-codes.js';
import type { Output } from '../output.js';
import { checkedScope, withLearning, type LearningSession } from './learning-session.js';
import { patternLines, patternsByType } from './patterns-render.js';

export interface ScopeOptions extends BackendOptions {
  /** `org` or `project:<id>`, repeatable; default every scope there is. */
  scope?: string[];
}

/** The scopes asked for, checked, or every scope there is. */
export async function scopesOf(
  options: ScopeOptions,
  session: LearningSession,
): Promise<RegistryScope[]> {
  return options.scope?.length ? options.scope.map(checkedScope) : session.scopes();
}

export async function patternsIn(
  session: LearningSession,
  scopes: readonly RegistryScope[],
): Promise<RegistryPattern[]> {
  const lists = await Promise.all(scopes.map((scope) => session.store.listPatterns(scope)));
  return lists.flat();
}

export async function patternsListCommand(
  options: ScopeOptions & PatternFilter,
  output: Output,
): Promise<number> {
  options.scope?.forEach(checkedScope);
  return withLearning('patterns list', options, async (session) => {
    const scopes = await scopesOf(options, session);
    const patterns = selectPatterns(await patternsIn(session, scopes), options);
    if (patterns.length === 0)
      output.line(
        `no registry patterns in ${scopes.join(', ')}${filtered(options) ? ' that match' : ''}`,
      );
    else for (const line of patternsByType(patterns)) output.line(line);
    output.data({ scopes, patterns });
    return EXIT.ok;
  });
}

const filtered = (filter: PatternFilter) =>
  filter.type !== undefined ||
  filter.minSuccessRate !== undefined ||
  (filter.tags?.length ?? 0) > 0;

export async function patternsShowCommand(
  patternId: string,
  options: ScopeOptions,
  output: Output,
): Promise<number> {
  options.scope?.forEach(checkedScope);
  return withLearning('patterns show', options, async (session) => {
    const scopes = await scopesOf(options, session);
    const found = (
      await Promise.all(scopes.map((scope) => session.store.getPattern(scope, patternId)))
    ).filter((pattern): pattern is RegistryPattern => pattern !== undefined);
    if (found.length === 0)
      throw new NotFoundError(
        `no registry pattern ${patternId} in ${scopes.join(', ')}: \`ralph patterns list\` shows the ids`,
      );
    found.forEach((pattern, index) => {
      if (index > 0) output.line('');
      for (const line of patternLines(pattern)) output.line(line);
    });
    output.data({ patterns: found });
    return EXIT.ok;
  });
}

export interface PatternsPruneOptions extends ScopeOptions, Partial<LearningConfig['prune']> {
  /** List what would be archived and why; write nothing. */
  dryRun?: boolean;
}

interface PruneResult {
  scope: RegistryScope;
  patternId: string;
  reason: string;
  /** Where the archived copy is (not on a dry run). */
  archive?: string;
  /** Why it was not archived. */
  left?: string;
}

export async function patternsPruneCommand(
  options: PatternsPruneOptions,
  output: Output,
): Promise<number> {
  options.scope?.forEach(checkedScope);
  const defaults = DEFAULT_LEARNING_CONFIG.prune;
  const prune = {
    minSuccessRate: options.minSuccessRate ?? defaults.minSuccessRate,
    minUses: options.minUses ?? defaults.minUses,
    maxIdleDays: options.maxIdleDays ?? defaults.maxIdleDays,
  };
  return withLearning('patterns prune', options, async (session) => {
    const scopes = await scopesOf(options, session);
    const candidates = pruneCandidates(await patternsIn(session, scopes), prune, session.now());
    const results: PruneResult[] = [];
    for (const { pattern, reason } of candidates) {
      const entry = { scope: pattern.scope, patternId: pattern.patternId, reason };
      results.push(options.dryRun ? entry : await archived(session, pattern, entry));
    }
    output.line(pruneSummary(results, scopes, options.dryRun === true));
    for (const result of results)
      output.line(
        `  ${result.scope} ${result.patternId}: ${result.reason}${result.left ? ` (${result.left})` : ''}`,
      );
    output.data({ dryRun: options.dryRun === true, prune, scopes, patterns: results });
    // One changed under us stays: as a lost race anywhere, the command did not do all it said.
    return results.some((result) => result.left) ? EXIT.notPossible : EXIT.ok;
  });
}

async function archived(
  session: LearningSession,
  pattern: RegistryPattern,
  entry: PruneResult,
): Promise<PruneResult> {
  try {
    const { key } = await session.store.archivePattern(pattern, entry.reason);
    return { ...entry, archive: key };
  } catch (error) {
    if (!(error instanceof VersionConflictError)) throw error;
    return { ...entry, left: 'changed since it was read, so left in the registry: prune again' };
  }
}

function pruneSummary(results: readonly PruneResult[], scopes: readonly string[], dryRun: boolean) {
  const where = scopes.join(', ');
  if (results.length === 0) return `nothing to prune in ${where}`;
  if (dryRun)
    return `would archive ${results.length} of the patterns in ${where} (dry run: nothing written):`;
  const done = results.filter((result) => result.archive).length;
  return `archived ${done} of ${results.length} patterns to prune in ${where}:`;
}
