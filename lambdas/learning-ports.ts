/**
 * The ports of learning across runs (shared/design/learned-rules.md,
 * shared/design/cross-loop-learning.md): where hints, project rules and the cross-loop
 * registry are kept, and how registry patterns are found for a task. Apart from ports.ts,
 * which holds the loop's own stores.
 *
 * Writes are conditional as everywhere: `expectedVersion` undefined creates, a number saves
 * over that version; a lost race is VersionConflictError, a malformed record
 * InvalidInputError (zod paths) before anything is written, a store out of reach
 * TransientError. A write the SDK retried after a lost reply is recognised as this call's own.
 */
import type {
  ProjectRule,
  RegistryPattern,
  RegistryScope,
  RunHint,
} from './core/schemas/learning.js';

/** Stage 0A: a run's hints (the run table, under the run). */
export interface RunHintStore {
  /** Keeps a hint once: the same hint again is a no-op, a different one under its id a conflict. */
  putHint(hint: RunHint): Promise<void>;
  /** In iteration order. */
  listHints(runId: string): Promise<RunHint[]>;
}

/** Stage 0B: a project's rules (the run table, under the project). */
export interface ProjectRuleStore {
  /** Every rule of the project, active and deprecated, by rule id. */
  listRules(projectId: string): Promise<ProjectRule[]>;
  getRule(projectId: string, ruleId: string): Promise<ProjectRule | undefined>;
  /** The stored version becomes `expectedVersion + 1` (1 on create). */
  saveRule(rule: ProjectRule, expectedVersion: number | undefined): Promise<ProjectRule>;
}

/**
 * The cross-loop registry, one partition per scope (a project's, the organisation's). A
 * pattern too large for an item keeps its body in the bucket; reads give it back whole.
 */
export interface PatternRegistry {
  /** Every pattern of the scope (archived ones are not), by pattern id. */
  listPatterns(scope: RegistryScope): Promise<RegistryPattern[]>;
  getPattern(scope: RegistryScope, patternId: string): Promise<RegistryPattern | undefined>;
  /** The stored version becomes `expectedVersion + 1` (1 on create). */
  savePattern(
    pattern: RegistryPattern,
    expectedVersion: number | undefined,
  ): Promise<RegistryPattern>;
  /**
   * Moves a pattern to the archive (`registry/archive/...` in the bucket, written first and
   * never deleted), then removes it from the registry if it is still at `pattern.version`.
   * Returns where the archived copy is. VersionConflictError when it changed since it was read
   * (the archived copy stays: an archive only grows).
   */
  archivePattern(pattern: RegistryPattern, reason: string): Promise<{ key: string }>;
}

export interface LearningStore extends RunHintStore, ProjectRuleStore, PatternRegistry {}

/** A registry pattern found for a query, with how well it matched (higher is better). */
export interface RetrievedPattern {
  readonly pattern: RegistryPattern;
  readonly score: number;
}

/**
 * Finds registry patterns for a task: full-text (BM25) over what a pattern is about, behind
 * this port so that an embedding retriever can replace it. Built once per snapshot.
 */
export interface PatternRetriever {
  /** At most `limit` patterns, best first; none when nothing matches. */
  search(query: string, limit: number): RetrievedPattern[];
}

/** Builds a retriever over a run's frozen patterns. */
export type PatternRetrieverFactory = (patterns: readonly RegistryPattern[]) => PatternRetriever;
