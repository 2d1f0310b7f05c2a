/**
 * Runs the user regexes of one target, as little as possible. The automaton reports
 * where their strings and literals occur; from there:
 *
 * - a string of an exact regex is a match by itself (checked for ASCII and `\b`);
 * - a literal at a bounded offset gets a few anchored (sticky) attempts, right where a
 *   match holding it would start;
 * - a literal at an unbounded offset, after characters the regex can only take from a
 *   known set, gets attempts (or a search) from the start of the run of such characters;
 * - anything else is searched for once.
 *
 * Regexes without a usable literal are joined in one "gate" regex, one capture group per
 * regex: a single search through the text finds which of them match.
 */
import type { FiredSet } from './fired-set.js';
import {
  ASCII_BOUNDARY_END,
  ASCII_BOUNDARY_START,
  BOUNDARY_BEFORE,
  SEARCH,
  type MatchPlan,
} from './match-plan.js';
import { MAX_ANCHORED_ATTEMPTS, MAX_PREFIX_RUN } from './constants.js';
import { inSet, type CharSet } from './regex-charset.js';
import { isAsciiWord } from './text.js';

/**
 * One per compiled matcher, reused for every run.
 *
 * @example
 * verifier.begin(text, lower.length, epoch);
 * // for each entry the scan found: verifier.exactHit(entry, end) / verifier.literalHit(entry, end)
 * verifier.finish();
 */
export class RegexVerifier {
  /** Per regex: the run in which it was decided (matched, or searched for in vain). */
  private readonly decidedIn: Uint32Array;
  /** Regexes met while offsets could not be trusted, to search for after the scan. */
  private readonly deferred: Int32Array;
  private deferredCount = 0;
  private epoch = 0;
  private text = '';
  /** The lower-cased text lines up with the original (no length-changing case mapping). */
  private aligned = true;

  constructor(
    private readonly plan: MatchPlan,
    private readonly fired: FiredSet,
  ) {
    this.decidedIn = new Uint32Array(plan.regexes.length);
    this.deferred = new Int32Array(plan.regexes.length);
  }

  /** Starts a run over `text` (whose lower-cased form is `lowerLength` long). */
  begin(text: string, lowerLength: number, epoch: number): void {
    if (epoch === 1) this.decidedIn.fill(0); // the run counter wrapped around
    this.epoch = epoch;
    this.text = text;
    this.aligned = text.length === lowerLength;
    this.deferredCount = 0;
  }

  /** Ends the run: the deferred and literal-less regexes; then drops the text. */
  finish(): void {
    const { text } = this;
    const { gate, ungated } = this.plan;
    for (let i = 0; i < this.deferredCount; i += 1) this.search(this.deferred[i]!);
    for (let i = 0; i < ungated.length; i += 1) this.search(ungated[i]!);
    if (gate && this.gatedUnsettled()) this.runGate(gate, text);
    this.text = ''; // hold no reference to the artefact between runs
  }

  /**
   * A string of an exact regex found, ending at `end`: a match, if the original text is
   * ASCII there (the Kelvin sign lower-cases to "k", but `/k/i` does not match it) and the
   * regex's `\b` hold. True when the entry needs no more looking at in this run.
   */
  exactHit(entry: number, end: number): boolean {
    const { entryRegex, entryLength, entryFlags } = this.plan;
    const regex = entryRegex[entry]!;
    if (this.decidedIn[regex] === this.epoch || !this.undecided(regex)) return true;
    if (!this.aligned) return this.defer(regex);
    const { text } = this;
    const start = end - entryLength[entry]!;
    for (let k = start; k < end; k += 1) if (text.charCodeAt(k) >= 128) return false;
    const flags = entryFlags[entry]!;
    if (flags & ASCII_BOUNDARY_START && isAsciiWord(text, start - 1) === isAsciiWord(text, start))
      return false;
    if (flags & ASCII_BOUNDARY_END && isAsciiWord(text, end - 1) === isAsciiWord(text, end))
      return false;
    return this.matched(regex);
  }

  /**
   * A required literal found, ending at `end`: try the regex where a match holding it
   * could start. True when the entry needs no more looking at in this run.
   */
  literalHit(entry: number, end: number): boolean {
    const { entryRegex, entryAttempts, entryLength, entryFirstStart, entryFlags } = this.plan;
    const regex = entryRegex[entry]!;
    if (this.decidedIn[regex] === this.epoch || !this.undecided(regex)) return true;
    // Offsets in the lower-cased text are positions in the original only when aligned.
    if (!this.aligned) return this.defer(regex);
    const literalStart = end - entryLength[entry]!;
    const attempts = entryAttempts[entry]!;
    if (attempts === SEARCH) {
      const prefix = this.plan.entryPrefix[entry];
      if (prefix) return this.fromRun(entry, regex, prefix, literalStart);
      this.decidedIn[regex] = this.epoch;
      this.search(regex);
      return true;
    }
    if (
      entryFlags[entry]! & BOUNDARY_BEFORE &&
      isAsciiWord(this.text, literalStart - 1) === isAsciiWord(this.text, literalStart)
    )
      return false; // the regex's `\b` cannot hold here ("order" in "border")
    const first = literalStart + entryFirstStart[entry]!;
    return this.attempt(regex, Math.max(0, first), first + attempts - 1);
  }

  /**
   * A literal of unbounded offset found at `literalStart`, whose regex consumes only
   * `prefix` characters before it: a match holding it starts within the run of such
   * characters that ends there. A short run is tried position by position; a long one is
   * searched from its start. The same literal further on has its run start no earlier
   * (the character before this run stops it too), so one search covers it as well.
   */
  private fromRun(entry: number, regex: number, prefix: CharSet, literalStart: number): boolean {
    const { text } = this;
    const floor = Math.max(0, literalStart - MAX_PREFIX_RUN);
    let runStart = literalStart;
    while (runStart > floor && inSet(prefix, text.charCodeAt(runStart - 1))) runStart -= 1;
    if (runStart === floor && floor > 0) {
      this.decidedIn[regex] = this.epoch; // the run goes on beyond reach: search it all
      this.search(regex);
      return true;
    }
    const lastStart = literalStart + this.plan.entryFirstStart[entry]!;
    if (lastStart - runStart < MAX_ANCHORED_ATTEMPTS)
      return this.attempt(regex, runStart, lastStart);
    const searching = this.plan.searching[regex]!;
    searching.lastIndex = runStart;
    // Found or not, this literal is done; the regex's other literals may still find it.
    return searching.test(text) ? this.matched(regex) : true;
  }

  /** Anchored attempts at each start from `first` to `last`. */
  private attempt(regex: number, first: number, last: number): boolean {
    const sticky = this.plan.anchored[regex]!;
    for (let start = first; start <= last; start += 1) {
      sticky.lastIndex = start;
      if (sticky.test(this.text)) return this.matched(regex);
    }
    return false;
  }

  private matched(regex: number): true {
    this.decidedIn[regex] = this.epoch;
    this.fire(regex);
    return true;
  }

  private defer(regex: number): true {
    this.decidedIn[regex] = this.epoch;
    this.deferred[this.deferredCount++] = regex;
    return true;
  }

  /** Searches the whole text, unless all the regex's patterns fired already. */
  private search(regex: number): void {
    if (this.undecided(regex) && this.plan.regexes[regex]!.test(this.text)) this.fire(regex);
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
      this.fire(gated[alternative]!);
      for (let later = alternative + 1; later < gated.length; later += 1) {
        const regex = gated[later]!;
        if (!this.undecided(regex)) continue;
        const sticky = anchored[regex]!;
        sticky.lastIndex = match.index;
        if (sticky.test(text)) this.fire(regex);
      }
      if (!this.gatedUnsettled()) return;
      gate.lastIndex = match.index + 1;
    }
  }

  private fire(regex: number): void {
    const patterns = this.plan.regexPatterns[regex]!;
    for (let i = 0; i < patterns.length; i += 1) this.fired.add(patterns[i]!);
  }

  /** Whether some pattern of the regex has not fired (through another entry, maybe). */
  private undecided(regex: number): boolean {
    return this.fired.anyMissing(this.plan.regexPatterns[regex]!);
  }

  private gatedUnsettled(): boolean {
    const { gated } = this.plan;
    for (let i = 0; i < gated.length; i += 1) if (this.undecided(gated[i]!)) return true;
    return false;
  }
}
