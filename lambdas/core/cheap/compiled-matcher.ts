/**
 * The production matcher: every keyword, phrase and regex literal of every pattern of a
 * target in one Aho–Corasick automaton, scanned once over the lower-cased text. Keywords
 * and phrases are decided here; regexes by the {@link RegexVerifier}, from where the
 * scan found their strings.
 */
import { Arrivals, type AutomatonOptions } from './aho-corasick.js';
import { FiredSet } from './fired-set.js';
import {
  REGEX_EXACT,
  REGEX_LITERAL,
  WORD_END,
  WORD_START,
  planMatching,
  type MatchPlan,
} from './match-plan.js';
import type { RegexPlan } from './regex-plan.js';
import { RegexVerifier } from './regex-verifier.js';
import { codePointBefore, codePointFrom, isWordCodePoint } from './text.js';
import { signedWeight, type TargetMatcher } from './types.js';
import type { Pattern } from '../schemas/evaluation.js';

class CompiledMatcher implements TargetMatcher {
  readonly ids: readonly string[];
  readonly signedWeights: Float64Array;
  private readonly plan: MatchPlan;
  private readonly arrivals = new Arrivals();
  private readonly fired: FiredSet;
  private readonly regexes: RegexVerifier;
  /**
   * Per entry / automaton state: the run in which it was settled / had all its entries
   * settled. Comparing with the run's number needs no clearing between runs.
   */
  private readonly entryIn: Uint32Array;
  private readonly stateIn: Uint32Array;
  private epoch = 0;
  private lower = '';

  constructor(
    readonly patterns: readonly Pattern[],
    plans: readonly (readonly RegexPlan[])[],
    options: AutomatonOptions,
  ) {
    this.plan = planMatching(patterns, plans, options);
    this.ids = patterns.map((pattern) => pattern.id);
    this.signedWeights = Float64Array.from(patterns, signedWeight);
    this.fired = new FiredSet(patterns.length);
    this.regexes = new RegexVerifier(this.plan, this.fired);
    this.entryIn = new Uint32Array(this.plan.entryFlags.length);
    this.stateIn = new Uint32Array(this.plan.automaton.stateCount);
  }

  run(text: string, lower: string): Int32Array {
    this.epoch += 1;
    if (this.epoch === 0xffffffff) {
      this.entryIn.fill(0);
      this.stateIn.fill(0);
      this.epoch = 1;
    }
    this.lower = lower;
    this.regexes.begin(text, lower.length, this.epoch);
    const count = this.plan.automaton.scan(lower, this.arrivals);
    const { states, ends } = this.arrivals;
    for (let i = 0; i < count; i += 1) {
      const state = states[i]!;
      // With a thousand patterns, most arrivals repeat a keyword whose pattern already
      // fired: a state whose entries are all settled is not looked at again.
      if (this.stateIn[state] !== this.epoch && this.visit(state, ends[i]!))
        this.stateIn[state] = this.epoch;
    }
    this.regexes.finish();
    this.lower = ''; // hold no reference to the artefact between runs
    return this.fired.drain();
  }

  /** Entries end at `end` in the lower-cased text; true once all of them are settled. */
  private visit(state: number, end: number): boolean {
    const { outputStart, outputEntries } = this.plan.automaton;
    let settled = true;
    for (let k = outputStart[state]!, last = outputStart[state + 1]!; k < last; k += 1) {
      const entry = outputEntries[k]!;
      if (this.entryIn[entry] === this.epoch) continue;
      const flags = this.plan.entryFlags[entry]!;
      const done =
        flags & REGEX_EXACT
          ? this.regexes.exactHit(entry, end)
          : flags & REGEX_LITERAL
            ? this.regexes.literalHit(entry, end)
            : this.keywordHit(entry, end);
      if (done) this.entryIn[entry] = this.epoch;
      else settled = false;
    }
    return settled;
  }

  /** A keyword or phrase found, ending at `end`: it fires unless glued to a word. */
  private keywordHit(entry: number, end: number): boolean {
    const { entryFlags, entryLength, entryPatternStart, entryPatterns } = this.plan;
    const flags = entryFlags[entry]!;
    if (
      flags & WORD_START &&
      isWordCodePoint(codePointBefore(this.lower, end - entryLength[entry]!))
    )
      return false;
    if (flags & WORD_END && isWordCodePoint(codePointFrom(this.lower, end))) return false;
    for (let k = entryPatternStart[entry]!, last = entryPatternStart[entry + 1]!; k < last; k += 1)
      this.fired.add(entryPatterns[k]!);
    return true;
  }
}

/**
 * Builds the compiled matcher of one target. `plans[i]` are the planned regexes of
 * `patterns[i]` (see `planRegex`).
 *
 * @example
 * const matcher = createCompiledMatcher(patterns, plans);
 * const fired = matcher.run(text, text.toLowerCase());
 * const firedIds = [...fired].map((index) => matcher.ids[index]);
 */
export function createCompiledMatcher(
  patterns: readonly Pattern[],
  plans: readonly (readonly RegexPlan[])[],
  options: AutomatonOptions = {},
): TargetMatcher {
  return new CompiledMatcher(patterns, plans, options);
}
