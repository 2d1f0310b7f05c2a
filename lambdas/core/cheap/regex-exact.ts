/**
 * Regexes that are finite sets of strings in disguise, like `as an? customer`,
 * `\b(?:todo|fixme)\b` or `\border(?:s|ed)?\b`: a case-insensitive match is then exactly
 * an occurrence of one of the strings (and, for a `\b` at either end, a word boundary
 * there), which the automaton finds on its own, without running the regex.
 */
import { MAX_EXACT_STRINGS } from './constants.js';
import type { RegexNode } from './regex-ast.js';

/** One string of an exact regex, with the `\b` that stands at its start or end. */
export interface ExactString {
  /** Lower-cased ASCII, never empty. */
  readonly text: string;
  readonly boundaryStart: boolean;
  readonly boundaryEnd: boolean;
}

type Alternatives = readonly (readonly RegexNode[])[];

/** Every concatenation of a string of `left` with one of `right`, or null past the limit. */
function product(left: readonly string[], right: readonly string[]): string[] | null {
  if (left.length * right.length > MAX_EXACT_STRINGS) return null;
  return left.flatMap((a) => right.map((b) => a + b));
}

function nodeStrings(node: RegexNode): string[] | null {
  switch (node.kind) {
    case 'char':
      return [node.char];
    case 'group':
      return node.lookaround ? null : alternativesStrings(node.alternatives);
    case 'repeat': {
      const inner = nodeStrings(node.node);
      if (inner === null || node.max === Infinity) return null;
      // min..max copies: {''} for none, then one more copy each step.
      let copies: string[] | null = [''];
      const all = new Set<string>();
      for (let count = 0; count <= node.max && copies !== null; count += 1) {
        if (count >= node.min) for (const text of copies) all.add(text);
        if (all.size > MAX_EXACT_STRINGS) return null;
        if (count < node.max) copies = product(copies, inner);
      }
      return copies === null ? null : [...all];
    }
    default:
      return null; // classes, digits, assertions inside, backreferences: not a finite set here
  }
}

function sequenceStrings(nodes: readonly RegexNode[]): string[] | null {
  let strings: string[] | null = [''];
  for (const node of nodes) {
    const next = nodeStrings(node);
    strings = next === null || strings === null ? null : product(strings, next);
    if (strings === null) return null;
  }
  return strings;
}

function alternativesStrings(alternatives: Alternatives): string[] | null {
  const all = new Set<string>();
  for (const nodes of alternatives) {
    const strings = sequenceStrings(nodes);
    if (strings === null) return null;
    for (const text of strings) all.add(text);
  }
  return all.size > MAX_EXACT_STRINGS ? null : [...all];
}

/**
 * The strings a regex matches exactly, or `undefined` when it is not such a finite set
 * (or would need more than {@link MAX_EXACT_STRINGS}). A `\b` is understood only at the
 * very start or end of a top-level alternative; an empty string disqualifies the set.
 *
 * @example
 * exactStrings(parseRegex('\\b(?:todo|fixme)\\b').alternatives)
 * // [{ text: 'todo', boundaryStart: true, boundaryEnd: true }, { text: 'fixme', ... }]
 */
export function exactStrings(alternatives: Alternatives): readonly ExactString[] | undefined {
  const out: ExactString[] = [];
  for (const nodes of alternatives) {
    let body = nodes;
    const boundaryStart = body[0]?.kind === 'boundary';
    if (boundaryStart) body = body.slice(1);
    const boundaryEnd = body[body.length - 1]?.kind === 'boundary';
    if (boundaryEnd) body = body.slice(0, -1);
    const strings = sequenceStrings(body);
    if (strings === null || strings.includes('')) return undefined;
    for (const text of strings) out.push({ text, boundaryStart, boundaryEnd });
    if (out.length > MAX_EXACT_STRINGS) return undefined;
  }
  return out;
}
