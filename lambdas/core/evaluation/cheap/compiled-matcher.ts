/**
 * The production matcher: every keyword, phrase and regex literal of every pattern of a
 * target in one Aho–Corasick automaton, scanned once over the lower-cased text.
 *
 * A user regex is never searched through the whole text just in case. When the scan
 * meets one of its required literals, the regex is tried only where a match holding that
 * literal could start (anchored, sticky attempts), or, when that range is wide, searched
 * once. Regexes without a usable literal are joined in one "gate" regex, one capture
 * group per regex: a single search through the text finds which of them match.
 */
import { Arrivals, type AutomatonOptions } from './aho-corasick.js';
import {
  ASCII_BOUNDARY_END,
  ASCII_BOUNDARY_START,
  BOUNDARY_BEFORE,
  REGEX_EXACT,
  REGEX_LITERAL,
  SEARCH,
  WORD_END,
  WORD_START,
  planMatching,
  type MatchPlan,
} from './match-plan.js';
import type { RegexPlan } from './regex-plan.js';
import { codePointBefore, codePointFrom, isWordCodePoint } from './text.js';
import { signedWeight, type TargetMatcher } from './types.js';
import type { Pattern } from '../schemas.js';

/** `\w` without the `u` flag, which is what `\b` tests in a user regex. */
function isAsciiWord(text: string, index: number): boolean {
  const c = text.charCodeAt(index); // NaN outside the text: not a word character
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

class CompiledMatcher implements TargetMatcher {
  readonly ids: readonly string[];
  readonly signedWeights: Float64Array;
  private readonly plan: MatchPlan;
  private readonly arrivals = new Arrivals();
  /**
   * Per pattern / entry / regex / automaton state: the run in which it fired / was
   * settled / had all its entries settled. Comparing with the run's number needs no
   * clearing between runs.
   */
  private readonly firedIn: Uint32Array;
  private readonly entryIn: Uint32Array;
  private readonly regexIn: Uint32Array;
  private readonly stateIn: Uint32Array;
  /** The patterns fired in this run, in firing order (sorted when the run ends). */
  private readonly firedList: Int32Array;
  private firedCount = 0;
  /** Regexes met while offsets could not be trusted, to search after the scan. */
  private readonly deferred: Int32Array;
  private deferredCount = 0;
  private epoch = 0;
  private text = '';
  private lower = '';
  /** The lower-cased text lines up with the original (no length-changing case mapping). */
  private aligned = true;

  constructor(
    readonly patterns: readonly Pattern[],
    plans: readonly (readonly RegexPlan[])[],
    options: AutomatonOptions,
  ) {
    this.plan = planMatching(patterns, plans, options);
    this.ids = patterns.map((pattern) => pattern.id);
    this.signedWeights = Float64Array.from(patterns, signedWeight);
    this.firedIn = new Uint32Array(patterns.length);
    this.entryIn = new Uint32Array(this.plan.entryFlags.length);
    this.regexIn = new Uint32Array(this.plan.regexes.length);
    this.stateIn = new Uint32Array(this.plan.automaton.stateCount);
    this.firedList = new Int32Array(patterns.length);
    this.deferred = new Int32Array(this.plan.regexes.length);
  }

  run(text: string, lower: string): Int32Array {
    this.epoch += 1;
    if (this.epoch === 0xffffffff) {
      for (const marks of [this.firedIn, this.entryIn, this.regexIn, this.stateIn]) marks.fill(0);
      this.epoch = 1;
    }
    this.firedCount = 0;
    this.deferredCount = 0;
    this.text = text;
    this.lower = lower;
    this.aligned = text.length === lower.length;
    const count = this.plan.automaton.scan(lower, this.arrivals);
    const { states, ends } = this.arrivals;
    for (let i = 0; i < count; i += 1) {
      const state = states[i]!;
      // With a thousand patterns, most arrivals repeat a keyword whose pattern already
      // fired: a state whose entries are all settled is not looked at again.
      if (this.stateIn[state] !== this.epoch && this.visit(state, ends[i]!))
        this.stateIn[state] = this.epoch;
    }
    // Hold no reference to the artefact's text between runs.
    this.text = '';
    this.lower = '';

    const { gate, ungated } = this.plan;
    for (let i = 0; i < this.deferredCount; i += 1) this.search(this.deferred[i]!, text);
    for (let i = 0; i < ungated.length; i += 1) this.search(ungated[i]!, text);
    if (gate && this.gatedUnsettled()) this.runGate(gate, text);
    return this.firedList.subarray(0, this.firedCount).sort();
  }

  /** Entries end at `end` in the lower-cased text; true once all of them are settled. */
  private visit(state: number, end: number): boolean {
    const { outputStart, outputEntries } = this.plan.automaton;
    let settled = true;
    for (let k = outputStart[state]!, last = outputStart[state + 1]!; k < last; k += 1) {
      const entry = outputEntries[k]!;
      if (this.entryIn[entry] === this.epoch) continue;
      const flags = this.plan.entryFlags[entry]!;
      if (flags & REGEX_EXACT) this.exactHit(entry, end);
      else if (flags & REGEX_LITERAL) this.regexLiteralHit(entry, end);
      else this.keywordHit(entry, end);
      settled &&= this.entryIn[entry] === this.epoch;
    }
    return settled;
  }

  /** A keyword or phrase found, ending at `end`: it fires unless glued to a word. */
  private keywordHit(entry: number, end: number): void {
    const { entryFlags, entryLength, entryPatternStart, entryPatterns } = this.plan;
    const flags = entryFlags[entry]!;
    if (
      flags & WORD_START &&
      isWordCodePoint(codePointBefore(this.lower, end - entryLength[entry]!))
    )
      return;
    if (flags & WORD_END && isWordCodePoint(codePointFrom(this.lower, end))) return;
    this.entryIn[entry] = this.epoch;
    for (let k = entryPatternStart[entry]!, last = entryPatternStart[entry + 1]!; k < last; k += 1)
      this.firePattern(entryPatterns[k]!);
  }

  /**
   * A string of an exact regex found, ending at `end`: a match, if the original text is
   * ASCII there (the Kelvin sign lower-cases to "k", but `/k/i` does not match it) and the
   * regex's `\b` hold.
   */
  private exactHit(entry: number, end: number): void {
    const { entryRegex, entryLength, entryFlags } = this.plan;
    const regex = entryRegex[entry]!;
    if (this.regexIn[regex] === this.epoch || !this.anyUnfired(regex) || !this.aligned) {
      if (this.regexIn[regex] !== this.epoch && !this.aligned)
        this.deferred[this.deferredCount++] = regex;
      this.settle(entry, regex);
      return;
    }
    const { text } = this;
    const start = end - entryLength[entry]!;
    for (let k = start; k < end; k += 1) if (text.charCodeAt(k) >= 128) return;
    const flags = entryFlags[entry]!;
    if (flags & ASCII_BOUNDARY_START && isAsciiWord(text, start - 1) === isAsciiWord(text, start))
      return;
    if (flags & ASCII_BOUNDARY_END && isAsciiWord(text, end - 1) === isAsciiWord(text, end)) return;
    this.fireRegex(regex);
    this.settle(entry, regex);
  }

  /** A regex literal found, ending at `end`: try the regex where a match could start. */
  private regexLiteralHit(entry: number, end: number): void {
    const { entryRegex, entryAttempts, entryLength, entryFirstStart, anchored } = this.plan;
    const regex = entryRegex[entry]!;
    if (this.regexIn[regex] === this.epoch || !this.anyUnfired(regex)) {
      this.settle(entry, regex); // decided already, or its patterns fired through keywords
      return;
    }
    const attempts = entryAttempts[entry]!;
    if (attempts === SEARCH || !this.aligned) {
      // Offsets in the lower-cased text are only positions in the original when aligned.
      if (this.aligned) this.search(regex, this.text);
      else this.deferred[this.deferredCount++] = regex;
      this.settle(entry, regex);
      return;
    }
    const literalStart = end - entryLength[entry]!;
    if (
      this.plan.entryFlags[entry]! & BOUNDARY_BEFORE &&
      isAsciiWord(this.text, literalStart - 1) === isAsciiWord(this.text, literalStart)
    )
      return; // the regex's `\b` cannot hold here ("order" in "border")
    const sticky = anchored[regex]!;
    const first = literalStart + entryFirstStart[entry]!;
    for (let start = Math.max(0, first), last = first + attempts; start < last; start += 1) {
      sticky.lastIndex = start;
      if (sticky.test(this.text)) {
        this.fireRegex(regex);
        this.settle(entry, regex);
        return;
      }
    }
  }

  private settle(entry: number, regex: number): void {
    this.entryIn[entry] = this.epoch;
    this.regexIn[regex] = this.epoch;
  }

  /** Searches the whole text for a regex, unless all its patterns fired already. */
  private search(regex: number, text: string): void {
    if (this.anyUnfired(regex) && this.plan.regexes[regex]!.test(text)) this.fireRegex(regex);
  }

  /**
   * One search through the text for all gated regexes. At each match, the capture group
   * that took part names the regex; regexes later in the alternation could match at the
   * same place (the engine stops at the first), so they are tried there, anchored. Then
   * the search resumes one position on, until no match is left or every regex fired.
   */
  private runGate(gate: RegExp, text: string): void {
    const { gated, anchored } = this.plan;
    gate.lastIndex = 0;
    for (let match = gate.exec(text); match !== null; match = gate.exec(text)) {
      let alternative = 0;
      while (alternative < gated.length && match[alternative + 1] === undefined) alternative += 1;
      this.fireRegex(gated[alternative]!);
      for (let later = alternative + 1; later < gated.length; later += 1) {
        const regex = gated[later]!;
        if (!this.anyUnfired(regex)) continue;
        const sticky = anchored[regex]!;
        sticky.lastIndex = match.index;
        if (sticky.test(text)) this.fireRegex(regex);
      }
      if (!this.gatedUnsettled()) return;
      gate.lastIndex = match.index + 1;
    }
  }

  private firePattern(pattern: number): void {
    if (this.firedIn[pattern] === this.epoch) return;
    this.firedIn[pattern] = this.epoch;
    this.firedList[this.firedCount++] = pattern;
  }

  private fireRegex(regex: number): void {
    const patterns = this.plan.regexPatterns[regex]!;
    for (let i = 0; i < patterns.length; i += 1) this.firePattern(patterns[i]!);
  }

  private anyUnfired(regex: number): boolean {
    const patterns = this.plan.regexPatterns[regex]!;
    for (let i = 0; i < patterns.length; i += 1)
      if (this.firedIn[patterns[i]!] !== this.epoch) return true;
    return false;
  }

  private gatedUnsettled(): boolean {
    const { gated } = this.plan;
    for (let i = 0; i < gated.length; i += 1) if (this.anyUnfired(gated[i]!)) return true;
    return false;
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
