import type { RegexPlan } from './regex-plan.js';
import type { QusSettings } from '../schemas/qus.js';
import type { Pattern, PatternSet, StoryHeuristics } from '../schemas/evaluation.js';

/** A pattern's effect on the score: its weight, positive when `good`, negative when `bad`. */
export const signedWeight = (pattern: Pattern): number =>
  pattern.type === 'good' ? pattern.weight : -pattern.weight;

/**
 * Finds which of one target's patterns fire on a text. Implementations reuse their
 * buffers from run to run (no allocation per artefact), so read a result before the next
 * `run`; evaluation is synchronous, so nothing can run in between.
 */
export interface TargetMatcher {
  /** The active patterns that apply to the target, in pattern-set order. */
  readonly patterns: readonly Pattern[];
  /**
   * Their ids and signed weights (`good` +, `bad` −), in the same order: results are built
   * from these flat arrays, without touching a thousand pattern objects per artefact.
   */
  readonly ids: readonly string[];
  readonly signedWeights: Float64Array;
  /**
   * Matches `text` (whose `toLowerCase()` is `lower`, computed once by the caller);
   * returns the indices into `patterns` of those that fired, ascending.
   */
  run(text: string, lower: string): Int32Array;
}

/**
 * Builds the matcher of one target from its patterns, already validated; `plans[i]` are
 * the planned regexes of `patterns[i]`.
 */
export type MatcherFactory = (
  patterns: readonly Pattern[],
  plans: readonly (readonly RegexPlan[])[],
) => TargetMatcher;

/** `techValidation` of a pattern set, ready to use. */
export interface TechRules {
  /** Repository or service → known path prefixes, in the set's order. */
  readonly repoPaths: readonly (readonly [repo: string, prefixes: readonly string[]])[];
  /** A file-like path with one of the valid extensions (`\w+/\w+\.(ts|py|...)`). */
  readonly fileLikePath: RegExp;
}

/** A pattern set compiled once (per version) and reused for every artefact. */
export interface CompiledPatterns {
  readonly version: number;
  readonly scoringWeights: PatternSet['scoringWeights'];
  /** The set's QUS settings, defaults filled in when it has none. */
  readonly qus: QusSettings;
  /** The set's `storyHeuristics`, defaults filled in when it has none. */
  readonly storyHeuristics: StoryHeuristics;
  readonly tech: TechRules;
  /** The matcher of the patterns that apply to `change` artefacts, if any do. */
  readonly change: TargetMatcher | undefined;
  /** Document type → the matcher of the patterns that apply to `document:<type>`. */
  readonly documents: ReadonlyMap<string, TargetMatcher>;
}
