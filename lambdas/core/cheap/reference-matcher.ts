/**
 * The reference matcher: one regex per pattern, tested in turn. It is the executable
 * definition of what "a pattern fires" means, kept deliberately naive so that it is
 * obviously right; the unit tests hold the compiled matcher to it, and the benchmark uses
 * it as the baseline. Not for production: its cost grows with the number of patterns.
 *
 * A pattern fires when, in the artefact's text,
 * - a keyword occurs in the lower-cased text, not glued to a word character on a side
 *   where the keyword itself starts or ends with one (`log` is not in `logging`, `c++`
 *   is in `use c++ here`);
 * - a phrase occurs in the lower-cased text, anywhere (as the design's value phrases);
 * - a regex matches the original text, case-insensitively (flag `i`, no `u`).
 */
import { compilePatternSetWith } from './compile.js';
import { USER_REGEX_FLAGS } from './regex-plan.js';
import { escapeRegExp, keywordSource } from './text.js';
import { signedWeight, type CompiledPatterns, type TargetMatcher } from './types.js';
import type { Pattern, PatternSet } from '../schemas/evaluation.js';

class ReferenceMatcher implements TargetMatcher {
  /** Per pattern: its keywords and phrases as one regex over the lower-cased text. */
  private readonly literal: (RegExp | undefined)[];
  /** Per pattern: its own regexes, over the original text. */
  private readonly regexes: RegExp[][];
  readonly ids: readonly string[];
  readonly signedWeights: Float64Array;

  constructor(readonly patterns: readonly Pattern[]) {
    this.ids = patterns.map((pattern) => pattern.id);
    this.signedWeights = Float64Array.from(patterns, signedWeight);
    this.literal = patterns.map((pattern) => {
      const sources = [
        ...pattern.keywords.map(keywordSource),
        ...pattern.phrases.map((phrase) => escapeRegExp(phrase.toLowerCase())),
      ];
      return sources.length === 0 ? undefined : new RegExp(sources.join('|'), 'u');
    });
    this.regexes = patterns.map((pattern) =>
      pattern.regexes.map((source) => new RegExp(source, USER_REGEX_FLAGS)),
    );
  }

  run(text: string, lower: string): Int32Array {
    const fired: number[] = [];
    this.patterns.forEach((_, index) => {
      if (
        (this.literal[index]?.test(lower) ?? false) ||
        (this.regexes[index] ?? []).some((regex) => regex.test(text))
      )
        fired.push(index);
    });
    return Int32Array.from(fired);
  }
}

/**
 * Builds the reference matcher of one target.
 *
 * @example
 * const matcher = createReferenceMatcher(patterns);
 * matcher.run(text, text.toLowerCase());
 */
export function createReferenceMatcher(patterns: readonly Pattern[]): TargetMatcher {
  return new ReferenceMatcher(patterns);
}

/**
 * Compiles a pattern set with the reference matcher (same validation and grouping as
 * `compilePatternSet`): `evaluateCheap` with it is the naive evaluator.
 *
 * @example
 * const naive = evaluateCheap(artefact, compileReferencePatterns(set));
 */
export function compileReferencePatterns(set: PatternSet): CompiledPatterns {
  return compilePatternSetWith(set, createReferenceMatcher);
}
