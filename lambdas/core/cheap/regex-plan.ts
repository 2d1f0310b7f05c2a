/**
 * What the compiler needs to know about one user regex before it is trusted: whether it
 * is acceptable at all, whether it is a finite set of strings (then the automaton alone
 * finds it), which literals it cannot match without (so the automaton can tell when
 * running it is worthwhile), and whether it may share an alternation with others.
 */
import { MAX_REGEX_SOURCE_LENGTH } from './constants.js';
import { parseRegex, RegexRefusal, type ParsedRegex } from './regex-ast.js';
import { exactStrings, type ExactString } from './regex-exact.js';
import { checkNesting, requiredLiterals, type RequiredLiteral } from './regex-literals.js';

export type { ExactString } from './regex-exact.js';
export type { RequiredLiteral } from './regex-literals.js';

/** Flags every user regex is compiled with: case-insensitive, Annex B syntax. */
export const USER_REGEX_FLAGS = 'i';

export interface RegexPlan {
  /** The regex itself, compiled once. */
  readonly regex: RegExp;
  /** Set when the regex matches exactly these strings: no need to run it. */
  readonly exact: readonly ExactString[] | undefined;
  /**
   * At least one of these occurs in the lower-cased text, at its offset, whenever the
   * regex matches. Empty: no usable literal, run the regex on every artefact.
   */
  readonly literals: readonly RequiredLiteral[];
  /**
   * The source with its capturing groups made non-capturing, safe to join with other
   * regexes in one alternation; `undefined` when it uses backreferences.
   */
  readonly combinable: string | undefined;
}

export type RegexPlanResult = { ok: true; plan: RegexPlan } | { ok: false; reason: string };

function withoutCaptures(source: string, parsed: ParsedRegex): string | undefined {
  if (parsed.hasBackreference) return undefined;
  let out = '';
  let from = 0;
  for (const [start, end] of parsed.captureOpeners) {
    out += `${source.slice(from, start)}(?:`;
    from = end;
  }
  return out + source.slice(from);
}

/**
 * Validates one user regex and plans how to run it. Refused: a syntax error, a source
 * longer than {@link MAX_REGEX_SOURCE_LENGTH}, a regex that matches the empty string
 * (it would fire on every artefact) and nested unbounded quantifiers (catastrophic
 * backtracking on a long document would stall the whole evaluation step).
 *
 * @example
 * const result = planRegex('\\b(?:todo|fixme)\\b');
 * if (result.ok) result.plan.exact // [{ text: 'todo', ... }, { text: 'fixme', ... }]
 */
export function planRegex(source: string): RegexPlanResult {
  if (source.length > MAX_REGEX_SOURCE_LENGTH)
    return { ok: false, reason: `longer than ${MAX_REGEX_SOURCE_LENGTH} characters` };
  let regex: RegExp;
  try {
    regex = new RegExp(source, USER_REGEX_FLAGS);
  } catch (error) {
    return { ok: false, reason: `not a valid regular expression (${(error as Error).message})` };
  }
  if (regex.test('')) return { ok: false, reason: 'matches the empty string' };
  try {
    const parsed = parseRegex(source);
    checkNesting(parsed.alternatives);
    return {
      ok: true,
      plan: {
        regex,
        exact: exactStrings(parsed.alternatives),
        literals: requiredLiterals(parsed.alternatives),
        combinable: withoutCaptures(source, parsed),
      },
    };
  } catch (error) {
    if (error instanceof RegexRefusal) return { ok: false, reason: error.message };
    throw error;
  }
}
