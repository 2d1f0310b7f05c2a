/**
 * Which literals a regex cannot match without, and where they sit in a match; how long a
 * match can be; and whether the regex nests unbounded repetition.
 *
 * Conservative by construction: dropping a literal only weakens the prefilter, while
 * inventing one would make a pattern miss, so anything unclear requires nothing.
 */
import { MIN_PREFILTER_LITERAL_LENGTH } from './constants.js';
import { RegexRefusal, type RegexNode } from './regex-ast.js';
import { classEscapeSet, emptySet, singleSet, union, type CharSet } from './regex-charset.js';

/**
 * A literal the regex cannot match without, and where it sits in any match: it starts
 * between `minOffset` and `maxOffset` code units after the match start (`maxOffset` may
 * be `Infinity`).
 */
export interface RequiredLiteral {
  /** Lower-cased ASCII. */
  readonly text: string;
  readonly minOffset: number;
  readonly maxOffset: number;
  /**
   * A `\b` stands right before the literal: where the character before it is as much a
   * word character as its first one, no match can hold the literal there.
   */
  readonly boundaryBefore?: boolean;
  /**
   * When `maxOffset` is unbounded: every character a match can hold before the literal
   * is in this set, so a match holding the literal starts within the run of such
   * characters that ends at it. Absent when unknown.
   */
  readonly prefixSet?: CharSet;
}

/** Any one of these (`null`: nothing required). */
type Requirement = readonly RequiredLiteral[] | null;
type Alternatives = readonly (readonly RegexNode[])[];

/** `count` repetitions of a length, where 0 × ∞ is 0. */
const times = (length: number, count: number): number =>
  length === 0 || count === 0 ? 0 : length * count;

/**
 * The shortest and longest match of a node, in code units (without `u`, a character is
 * one unit).
 *
 * @example
 * lengthRange({ kind: 'repeat', min: 1, max: 3, node: { kind: 'digit' } }) // [1, 3]
 */
export function lengthRange(node: RegexNode): [number, number] {
  switch (node.kind) {
    case 'char':
    case 'digit':
    case 'other':
      return [1, 1];
    case 'boundary':
    case 'assertion':
      return [0, 0];
    case 'backreference':
      return [0, Infinity];
    case 'group':
      return node.lookaround ? [0, 0] : alternativesRange(node.alternatives);
    case 'repeat': {
      const [min, max] = lengthRange(node.node);
      return [times(min, node.min), times(max, node.max)];
    }
  }
}

function alternativesRange(alternatives: Alternatives): [number, number] {
  let min = Infinity;
  let max = 0;
  for (const nodes of alternatives) {
    let [low, high] = [0, 0];
    for (const node of nodes) {
      const [a, b] = lengthRange(node);
      low += a;
      high += b;
    }
    min = Math.min(min, low);
    max = Math.max(max, high);
  }
  return [min, max];
}

function hasUnbounded(node: RegexNode): boolean {
  if (node.kind === 'repeat') return node.max === Infinity || hasUnbounded(node.node);
  if (node.kind === 'group') return node.alternatives.some((nodes) => nodes.some(hasUnbounded));
  return false;
}

/**
 * Refuses unbounded repetition of something that itself repeats without bound, like
 * `(a+)+`: on a long text without a match the engine tries exponentially many ways.
 *
 * @example
 * checkNesting(parseRegex('(\\w+\\s?)+').alternatives) // throws RegexRefusal
 */
export function checkNesting(alternatives: Alternatives): void {
  const visit = (node: RegexNode): void => {
    if (node.kind === 'repeat') {
      if (node.max === Infinity && hasUnbounded(node.node))
        throw new RegexRefusal(
          'nested unbounded quantifiers (like (a+)+) risk catastrophic backtracking',
        );
      visit(node.node);
    } else if (node.kind === 'group') node.alternatives.forEach((nodes) => nodes.forEach(visit));
  };
  alternatives.forEach((nodes) => nodes.forEach(visit));
}

/** Letters and whitespace are everywhere in prose; digits and punctuation are not. */
const COMMON_CHAR = /[a-z\s]/;

/**
 * Whether finding the literal says something: at least {@link MIN_PREFILTER_LITERAL_LENGTH}
 * characters, or shorter but made of digits and punctuation only (`%`, `$`, `-`, `7`).
 *
 * @example
 * usable({ text: '%', minOffset: 0, maxOffset: 0 }) // true
 * usable({ text: 'as', minOffset: 0, maxOffset: 0 }) // false
 */
export function usable(literal: RequiredLiteral): boolean {
  return literal.text.length >= MIN_PREFILTER_LITERAL_LENGTH || !COMMON_CHAR.test(literal.text);
}

/**
 * Orders candidate requirements: usable first; then with bounded offsets (a match can be
 * tried right where the literal is, instead of searched for through the text); then the
 * longest shortest literal (rarer in text).
 */
function score(requirement: Requirement): number {
  if (requirement === null || requirement.length === 0) return 0;
  let length = Infinity;
  for (const literal of requirement) length = Math.min(length, literal.text.length);
  const worth = requirement.every(usable) ? 2000 : 0;
  const bounded = requirement.every((literal) => literal.maxOffset !== Infinity) ? 1000 : 0;
  return worth + bounded + Math.min(length, 999);
}

/** `\d`: one of ten one-character literals. */
const DIGITS: Requirement = Array.from({ length: 10 }, (_, digit) => ({
  text: String(digit),
  minOffset: 0,
  maxOffset: 0,
}));

/**
 * Moves a requirement's offsets from its construct's start to the enclosing one's; after
 * a `\b`, marks the literals that start the construct. Prefix sets are dropped: they only
 * know the characters inside the construct, not those before it.
 */
function shift(requirement: Requirement, min: number, max: number, boundary: boolean) {
  return (
    requirement?.map((literal) => ({
      text: literal.text,
      minOffset: literal.minOffset + min,
      maxOffset: literal.maxOffset + max,
      ...((literal.boundaryBefore || (boundary && literal.maxOffset === 0)) && {
        boundaryBefore: true,
      }),
    })) ?? null
  );
}

/** The characters one node can consume; `null` for a group or a backreference. */
function nodeSet(node: RegexNode): CharSet | null {
  switch (node.kind) {
    case 'char':
      return singleSet(node.char.charCodeAt(0));
    case 'digit':
      return classEscapeSet('d')!;
    case 'other':
      return node.set;
    case 'boundary':
    case 'assertion':
      return emptySet();
    case 'repeat':
      return nodeSet(node.node);
    default:
      return null;
  }
}

/** The best requirement of one alternative: its longest literal run, or a group's set. */
function alternativeRequirement(nodes: readonly RegexNode[]): Requirement {
  let best: Requirement = null;
  const consider = (requirement: Requirement): void => {
    if (score(requirement) > score(best)) best = requirement;
  };
  // Where the next node starts, as an offset range from the alternative's start.
  let [minOffset, maxOffset] = [0, 0];
  let run: RequiredLiteral | undefined;
  let boundary = false; // the previous node was `\b`
  // Every character the nodes so far can consume (null once a node is not that simple).
  let prefix: CharSet | null = emptySet();
  const withPrefix = (requirement: Requirement): Requirement =>
    prefix === null
      ? requirement
      : (requirement?.map((literal) =>
          literal.maxOffset === Infinity ? { ...literal, prefixSet: prefix! } : literal,
        ) ?? null);
  const flush = (): void => {
    if (run) consider([run]);
    run = undefined;
  };
  for (const node of nodes) {
    const [atom, min, max] =
      node.kind === 'repeat' ? [node.node, node.min, node.max] : [node, 1, 1];
    if (atom.kind === 'char' && min >= 1) {
      run = run
        ? { ...run, text: run.text + atom.char }
        : {
            text: atom.char,
            minOffset,
            maxOffset,
            ...(boundary && { boundaryBefore: true }),
            ...(prefix && maxOffset === Infinity && { prefixSet: prefix }),
          };
      if (max !== 1) flush(); // there at least once; what follows may be more copies
    } else {
      flush();
      // A group's literal is in its first repetition, which starts here.
      if (min >= 1 && atom.kind === 'digit')
        consider(withPrefix(shift(DIGITS, minOffset, maxOffset, boundary)));
      if (min >= 1 && atom.kind === 'group' && !atom.lookaround)
        consider(shift(requirementOf(atom.alternatives), minOffset, maxOffset, boundary));
    }
    boundary = node.kind === 'boundary';
    const consumed = nodeSet(node);
    if (consumed === null || prefix === null) prefix = null;
    else {
      prefix = prefix.slice(); // literals found so far keep the set they saw
      union(prefix, consumed);
    }
    const [low, high] = lengthRange(node);
    minOffset += low;
    maxOffset += high;
  }
  flush();
  return best;
}

function requirementOf(alternatives: Alternatives): Requirement {
  const each = alternatives.map(alternativeRequirement);
  return each.some((requirement) => requirement === null) ? null : each.flatMap((r) => r ?? []);
}

/**
 * Literals, one of which any match holds (at its offset); empty when none is usable.
 *
 * @example
 * requiredLiterals(parseRegex('\\bas an? \\w+').alternatives)
 * // [{ text: 'as a', minOffset: 0, maxOffset: 0, boundaryBefore: true }]
 */
export function requiredLiterals(alternatives: Alternatives): readonly RequiredLiteral[] {
  const requirement = requirementOf(alternatives);
  return requirement?.every(usable) ? requirement : [];
}
