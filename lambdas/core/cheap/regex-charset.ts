/**
 * The characters one regex atom can match, as far as ASCII goes: a 128-entry membership
 * table plus one flag for "some non-ASCII character". Used to find where a match could
 * start (see `RequiredLiteral.prefixSet`), so it may only ever say too much, never too
 * little: anything unclear is "every character".
 */

/** Index 0–127: the ASCII character is in the set; index 128: some non-ASCII one may be. */
export type CharSet = Uint8Array;

const NON_ASCII = 128;

/**
 * @example
 * union(emptySet(), singleSet(65)) // A and a
 */
export function emptySet(): CharSet {
  return new Uint8Array(129);
}

/**
 * Every character: what an atom the analysis does not read stands for.
 *
 * @example
 * inSet(anySet(), 0xe9) // true
 */
export function anySet(): CharSet {
  return new Uint8Array(129).fill(1);
}

/** Adds a code unit, and with it its other case (the regex is case-insensitive). */
function add(set: CharSet, code: number): void {
  if (code >= 128) {
    set[NON_ASCII] = 1;
    return;
  }
  set[code] = 1;
  if (code >= 65 && code <= 90) set[code + 32] = 1;
  else if (code >= 97 && code <= 122) set[code - 32] = 1;
}

function addRange(set: CharSet, from: number, to: number): void {
  for (let code = from; code <= Math.min(to, 127); code += 1) add(set, code);
  if (to >= 128) set[NON_ASCII] = 1;
}

const DIGIT_SET = emptySet();
addRange(DIGIT_SET, 48, 57);
const WORD_SET = emptySet();
for (const [from, to] of [
  [48, 57],
  [65, 90],
  [97, 122],
  [95, 95],
] as const)
  addRange(WORD_SET, from, to);
const SPACE_SET = emptySet();
for (const code of [9, 10, 11, 12, 13, 32]) add(SPACE_SET, code);
SPACE_SET[NON_ASCII] = 1; // \s also takes Unicode spaces

/** Everything except the given ASCII members (non-ASCII characters are all in). */
function complement(set: CharSet): CharSet {
  const out = emptySet();
  for (let code = 0; code < 128; code += 1) out[code] = set[code] ? 0 : 1;
  out[NON_ASCII] = 1;
  return out;
}

/**
 * `\d`, `\w`, `\s` and their negations; `undefined` for any other letter.
 *
 * @example
 * inSet(classEscapeSet('w')!, 95) // true ('_')
 */
export function classEscapeSet(letter: string): CharSet | undefined {
  switch (letter) {
    case 'd':
      return DIGIT_SET;
    case 'w':
      return WORD_SET; // without `u`, `\w` is ASCII only, even with `i`
    case 's':
      return SPACE_SET;
    case 'D':
      return complement(DIGIT_SET);
    case 'W':
      return complement(WORD_SET);
    case 'S':
      return complement(SPACE_SET);
    default:
      return undefined;
  }
}

/**
 * `.`: anything but a line terminator.
 *
 * @example
 * inSet(dotSet(), 10) // false ('\n')
 */
export function dotSet(): CharSet {
  const set = anySet();
  set[10] = 0;
  set[13] = 0;
  return set;
}

/**
 * A single character atom (a literal, or an escape standing for one code unit), with its
 * other case.
 *
 * @example
 * inSet(singleSet(97), 65) // true
 */
export function singleSet(code: number): CharSet {
  const set = emptySet();
  add(set, code);
  return set;
}

/**
 * Adds every member of `set` to `into`.
 *
 * @example
 * union(prefix, classEscapeSet('d')!)
 */
export function union(into: CharSet, set: CharSet): void {
  for (let index = 0; index < 129; index += 1) if (set[index]) into[index] = 1;
}

/**
 * The set of a character class body (`source[start]` is just after `[`, `end` at `]`).
 * Only the common forms are read (members, ranges, `\d \w \s` and their negations, simple
 * escapes); for anything else, every character.
 *
 * @example
 * classSet('[A-Z_]', 1, 5) // A–Z, a–z and _
 */
export function classSet(source: string, start: number, end: number): CharSet {
  let pos = start;
  const negated = source[pos] === '^';
  if (negated) pos += 1;
  const set = emptySet();
  /** The code unit at pos (consumed), a class escape's set, or undefined when unclear. */
  const member = (): number | CharSet | undefined => {
    const c = source[pos]!;
    pos += 1;
    if (c !== '\\') return c.charCodeAt(0);
    const e = source[pos];
    pos += 1;
    if (e === undefined) return undefined;
    const escapeSet = classEscapeSet(e);
    if (escapeSet) return escapeSet;
    const controls: Record<string, number> = { n: 10, r: 13, t: 9, v: 11, f: 12, b: 8 };
    if (e in controls) return controls[e];
    if (/[a-zA-Z0-9]/.test(e)) return undefined; // \x, \u, \c, octal...: not worth reading
    return e.charCodeAt(0);
  };
  while (pos < end) {
    const first = member();
    if (first === undefined) return anySet();
    if (typeof first !== 'number') {
      union(set, first);
      continue;
    }
    if (source[pos] === '-' && pos + 1 < end) {
      pos += 1;
      const last = member();
      if (last === undefined) return anySet();
      if (typeof last !== 'number') {
        // Annex B: a class escape ends no range; the '-' is itself.
        add(set, first);
        add(set, 45);
        union(set, last);
        continue;
      }
      addRange(set, first, last);
    } else add(set, first);
  }
  return negated ? complement(set) : set;
}

/**
 * Whether a code unit is in a set (any non-ASCII one counts as in when some may be).
 *
 * @example
 * inSet(classSet('[a-z]', 1, 4), 'Q'.charCodeAt(0)) // true: the regex is case-insensitive
 */
export function inSet(set: CharSet, code: number): boolean {
  return set[code < 128 ? code : 128] === 1;
}
