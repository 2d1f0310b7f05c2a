/**
 * Which registry patterns a listing shows and in what order (cross-loop-learning.md "List
 * Patterns": by type, filtered by success rate and tags), and the scopes there are.
 */
import {
  PATTERN_TYPES,
  type PatternType,
  type RegistryPattern,
  type RegistryScope,
} from '../schemas/learning.js';
import { fallsBelow } from '../shared/compare.js';

export interface PatternFilter {
  type?: PatternType;
  /** At least this success rate (0..1). */
  minSuccessRate?: number;
  /** Every one of these tags. */
  tags?: readonly string[];
}

/**
 * The patterns that pass `filter`, by type (error, success, anti, template), then the best
 * first: success rate, then uses, then id.
 *
 * @example
 * selectPatterns(patterns, { type: 'error', minSuccessRate: 0.8, tags: ['typescript'] });
 */
export function selectPatterns(
  patterns: readonly RegistryPattern[],
  filter: PatternFilter,
): RegistryPattern[] {
  const tags = filter.tags ?? [];
  return patterns
    .filter(
      (pattern) =>
        (filter.type === undefined || pattern.type === filter.type) &&
        (filter.minSuccessRate === undefined ||
          !fallsBelow(pattern.successRate, filter.minSuccessRate)) &&
        tags.every((tag) => pattern.tags.includes(tag)),
    )
    .sort(
      (a, b) =>
        PATTERN_TYPES.indexOf(a.type) - PATTERN_TYPES.indexOf(b.type) ||
        b.successRate - a.successRate ||
        b.uses - a.uses ||
        a.patternId.localeCompare(b.patternId) ||
        a.scope.localeCompare(b.scope),
    );
}

/**
 * The registry scopes of the organisation and of each project, once each, `org` first: the
 * registry keeps one partition per scope and cannot list them itself, so the projects come
 * from what else names them (runs, project routes).
 *
 * @example
 * registryScopes(['shop', 'web', 'shop']); // ['org', 'project:shop', 'project:web']
 */
export function registryScopes(projectIds: Iterable<string>): RegistryScope[] {
  const projects = [...new Set(projectIds)].sort();
  return ['org', ...projects.map((id): RegistryScope => `project:${id}`)];
}

/** The project of a `project:<id>` scope; none for `org`. */
export function projectOfScope(scope: RegistryScope): string | undefined {
  return scope === 'org' ? undefined : scope.slice('project:'.length);
}
