/**
 * The immutable tables of one target's compiled matcher: the automaton's entries (each
 * distinct keyword, phrase and regex literal once), which patterns each entry fires, and
 * the regexes with how to run them. Built once per pattern-set version.
 */
import { buildAutomaton, type Automaton, type AutomatonOptions } from './aho-corasick.js';
import { MAX_ANCHORED_ATTEMPTS } from './constants.js';
import type { CharSet } from './regex-charset.js';
import {
  USER_REGEX_FLAGS,
  type ExactString,
  type RegexPlan,
  type RequiredLiteral,
} from './regex-plan.js';
import { codePointBefore, codePointFrom, isWordCodePoint } from './text.js';
import type { Pattern } from '../schemas/evaluation.js';

/** Entry flags: a keyword edge that must not touch a word character; a regex literal. */
export const WORD_START = 1;
export const WORD_END = 2;
export const REGEX_LITERAL = 4;
/** A regex literal preceded by `\b` in the regex. */
export const BOUNDARY_BEFORE = 8;
/** One string of an exact regex, and the `\b` at its start / end (ASCII word characters). */
export const REGEX_EXACT = 16;
export const ASCII_BOUNDARY_START = 32;
export const ASCII_BOUNDARY_END = 64;
/** `entryAttempts` of a literal whose match start is too loosely tied to it: search instead. */
export const SEARCH = -1;

export interface MatchPlan {
  readonly automaton: Automaton;
  /** Per entry (index in the automaton): flags and length of its string. */
  readonly entryFlags: Uint8Array;
  readonly entryLength: Int32Array;
  /** Keywords and phrases: the patterns entry e fires, `entryPatterns[entryPatternStart[e] ..]`. */
  readonly entryPatternStart: Int32Array;
  readonly entryPatterns: Int32Array;
  /**
   * Regex literals: the regex; the first start to try, relative to the literal's start, and
   * how many (for SEARCH: the latest start instead).
   */
  readonly entryRegex: Int32Array;
  readonly entryFirstStart: Int32Array;
  readonly entryAttempts: Int32Array;
  /**
   * Literals of unbounded offset (`entryAttempts` = SEARCH, `entryFirstStart` = −minOffset):
   * the characters a match can hold before them, when known.
   */
  readonly entryPrefix: readonly (CharSet | undefined)[];
  /** Distinct regexes (by source), the same with the sticky flag, and the patterns of each. */
  readonly regexes: readonly RegExp[];
  readonly anchored: readonly RegExp[];
  /** The same with the global flag, to search from a given position. */
  readonly searching: readonly RegExp[];
  readonly regexPatterns: readonly Int32Array[];
  /**
   * Regexes without a usable literal: joined in `gate` (capture group i + 1 is
   * `gated[i]`), or searched on their own (backreferences cannot share an alternation).
   */
  readonly gate: RegExp | undefined;
  readonly gated: Int32Array;
  readonly ungated: Int32Array;
}

/** Collects entries, one per distinct string and flags (learned keywords recur across patterns). */
class EntryTable {
  readonly strings: string[] = [];
  readonly flags: number[] = [];
  readonly patterns: number[][] = [];
  readonly regex: number[] = [];
  readonly firstStart: number[] = [];
  readonly attempts: number[] = [];
  readonly prefix: (CharSet | undefined)[] = [];
  private readonly byKey = new Map<string, number>();

  private add(text: string, flags: number, regex = -1, firstStart = 0, attempts = 0): number {
    this.strings.push(text);
    this.flags.push(flags);
    this.patterns.push([]);
    this.regex.push(regex);
    this.firstStart.push(firstStart);
    this.attempts.push(attempts);
    this.prefix.push(undefined);
    return this.strings.length - 1;
  }

  /** A keyword (boundary flags) or a phrase (none) of `pattern`. */
  literal(text: string, flags: number, pattern: number): void {
    const key = `${flags}:${text}`;
    let entry = this.byKey.get(key);
    if (entry === undefined) this.byKey.set(key, (entry = this.add(text, flags)));
    const patterns = this.patterns[entry]!;
    if (patterns[patterns.length - 1] !== pattern) patterns.push(pattern);
  }

  /** One of the strings `regex` matches exactly. */
  exact(string: ExactString, regex: number): void {
    const flags =
      REGEX_EXACT |
      (string.boundaryStart ? ASCII_BOUNDARY_START : 0) |
      (string.boundaryEnd ? ASCII_BOUNDARY_END : 0);
    this.add(string.text, flags, regex);
  }

  /** A literal required by `regex` (see {@link RequiredLiteral}). */
  regexLiteral(literal: RequiredLiteral, regex: number): void {
    const flags = REGEX_LITERAL | (literal.boundaryBefore ? BOUNDARY_BEFORE : 0);
    const attempts = literal.maxOffset - literal.minOffset + 1;
    if (attempts <= MAX_ANCHORED_ATTEMPTS)
      this.add(literal.text, flags, regex, -literal.maxOffset, attempts);
    else {
      // Unbounded: the latest start is −minOffset; the prefix set may bound the earliest.
      const entry = this.add(literal.text, flags, regex, -literal.minOffset, SEARCH);
      this.prefix[entry] = literal.prefixSet;
    }
  }
}

function keywordFlags(lower: string): number {
  let flags = 0;
  if (isWordCodePoint(codePointFrom(lower, 0))) flags |= WORD_START;
  if (isWordCodePoint(codePointBefore(lower, lower.length))) flags |= WORD_END;
  return flags;
}

/** One alternation of many regexes; `undefined` if the engine refuses the combination. */
function combine(sources: readonly string[]): RegExp | undefined {
  try {
    return new RegExp(sources.join('|'), `${USER_REGEX_FLAGS}g`);
  } catch {
    return undefined;
  }
}

/**
 * Builds the tables of one target. `plans[i]` are the planned regexes of `patterns[i]`.
 *
 * @example
 * const plan = planMatching(patterns, plans);
 * plan.automaton.scan(lower, arrivals); // states where entries end, for the matcher to check
 */
export function planMatching(
  patterns: readonly Pattern[],
  plans: readonly (readonly RegexPlan[])[],
  options: AutomatonOptions = {},
): MatchPlan {
  const entries = new EntryTable();
  const regexes: RegExp[] = [];
  const regexPatterns: number[][] = [];
  const regexBySource = new Map<string, number>();
  const gated: number[] = [];
  const gateSources: string[] = [];
  const ungated: number[] = [];

  patterns.forEach((pattern, index) => {
    for (const keyword of pattern.keywords) {
      const lower = keyword.toLowerCase();
      entries.literal(lower, keywordFlags(lower), index);
    }
    for (const phrase of pattern.phrases) entries.literal(phrase.toLowerCase(), 0, index);
    for (const plan of plans[index] ?? []) {
      // Learned sets repeat regexes: each distinct one runs once and fires all its patterns.
      const known = regexBySource.get(plan.regex.source);
      if (known !== undefined) {
        regexPatterns[known]!.push(index);
        continue;
      }
      const regex = regexes.length;
      regexBySource.set(plan.regex.source, regex);
      regexes.push(plan.regex);
      regexPatterns.push([index]);
      if (plan.exact) {
        for (const string of plan.exact) entries.exact(string, regex);
        continue;
      }
      for (const literal of plan.literals) entries.regexLiteral(literal, regex);
      if (plan.literals.length > 0) continue;
      if (plan.combinable === undefined) ungated.push(regex);
      else {
        gated.push(regex);
        gateSources.push(`(${plan.combinable})`);
      }
    }
  });

  // What each entry does, so that interchangeable ones can share alphabet classes.
  const behaviour = entries.strings.map((_, entry) =>
    entries.flags[entry]! & (REGEX_LITERAL | REGEX_EXACT)
      ? `r${entries.flags[entry]}:${entries.regex[entry]}:${entries.firstStart[entry]}:${entries.attempts[entry]}:${entries.prefix[entry]?.join('') ?? ''}`
      : `k${entries.flags[entry]}:${entries.patterns[entry]!.join(',')}`,
  );
  const entryPatternStart = new Int32Array(entries.strings.length + 1);
  entries.patterns.forEach((list, entry) => {
    entryPatternStart[entry + 1] = entryPatternStart[entry]! + list.length;
  });
  const gate = gated.length > 0 ? combine(gateSources) : undefined;
  return {
    automaton: buildAutomaton(entries.strings, { ...options, behaviour }),
    entryFlags: Uint8Array.from(entries.flags),
    entryLength: Int32Array.from(entries.strings, (text) => text.length),
    entryPatternStart,
    entryPatterns: Int32Array.from(entries.patterns.flat()),
    entryRegex: Int32Array.from(entries.regex),
    entryFirstStart: Int32Array.from(entries.firstStart),
    entryAttempts: Int32Array.from(entries.attempts),
    entryPrefix: entries.prefix,
    regexes,
    anchored: regexes.map((regex) => new RegExp(regex.source, `${USER_REGEX_FLAGS}y`)),
    searching: regexes.map((regex) => new RegExp(regex.source, `${USER_REGEX_FLAGS}g`)),
    regexPatterns: regexPatterns.map((list) => Int32Array.from(list)),
    gate,
    // Should the engine refuse the combination, each regex is searched on its own.
    gated: Int32Array.from(gate ? gated : []),
    ungated: Int32Array.from(gate ? ungated : [...ungated, ...gated]),
  };
}
