/**
 * A small syntax tree of a user regex, read the way the engine reads it without the `u`
 * flag (Annex B): just what the analyses need (literal characters, digits, assertions,
 * groups, repetition). Syntax is checked by the engine first; this parser only has to
 * agree with it on where each construct starts and ends. Any one-character atom that is
 * not a plain ASCII character is `other`, with the set of characters it can match (as far
 * as the analyses need to know, "anything" when unclear).
 */

import {
  anySet,
  classEscapeSet,
  classSet,
  dotSet,
  singleSet,
  type CharSet,
} from './regex-charset.js';

export type RegexNode =
  /** One ASCII character, lower-cased (the regex is case-insensitive). */
  | { readonly kind: 'char'; readonly char: string }
  /** `\d`. */
  | { readonly kind: 'digit' }
  /** Any other one-character atom (a class, `.`, `\w`...), with what it can match. */
  | { readonly kind: 'other'; readonly set: CharSet }
  /** `\b`. */
  | { readonly kind: 'boundary' }
  /** `^`, `$`, `\B`. */
  | { readonly kind: 'assertion' }
  | { readonly kind: 'backreference' }
  | {
      readonly kind: 'group';
      readonly lookaround: boolean;
      readonly alternatives: readonly (readonly RegexNode[])[];
    }
  | {
      readonly kind: 'repeat';
      readonly min: number;
      readonly max: number;
      readonly node: RegexNode;
    };

export interface ParsedRegex {
  readonly alternatives: readonly (readonly RegexNode[])[];
  readonly hasBackreference: boolean;
  /** Capturing-group openers, `[start, end)` in the source: `(` or `(?<name>`. */
  readonly captureOpeners: readonly (readonly [number, number])[];
}

/** Thrown for a construct the analyses cannot read; `planRegex` turns it into a refusal. */
export class RegexRefusal extends Error {}

const ANY: RegexNode = { kind: 'other', set: anySet() };
const other = (set: CharSet): RegexNode => ({ kind: 'other', set });
const QUANTIFIER = /\{(\d+)(,(\d*))?\}/y;
const HEX2 = /[0-9a-fA-F]{2}/y;
const HEX4 = /[0-9a-fA-F]{4}/y;
const LETTER = /[a-zA-Z]/;

class Parser {
  private pos = 0;
  hasBackreference = false;
  readonly captureOpeners: [number, number][] = [];

  constructor(private readonly source: string) {}

  parse(): readonly (readonly RegexNode[])[] {
    const alternatives = this.disjunction();
    if (this.pos < this.source.length) throw new RegexRefusal(`unexpected "${this.peek()}"`);
    return alternatives;
  }

  private peek(offset = 0): string {
    return this.source.charAt(this.pos + offset);
  }

  private disjunction(): RegexNode[][] {
    const alternatives = [this.alternative()];
    while (this.peek() === '|') {
      this.pos += 1;
      alternatives.push(this.alternative());
    }
    return alternatives;
  }

  private alternative(): RegexNode[] {
    const nodes: RegexNode[] = [];
    while (this.pos < this.source.length && this.peek() !== '|' && this.peek() !== ')') {
      const atom = this.atom();
      const quantifier = this.quantifier();
      nodes.push(quantifier ? { kind: 'repeat', ...quantifier, node: atom } : atom);
    }
    return nodes;
  }

  private quantifier(): { min: number; max: number } | undefined {
    const c = this.peek();
    let quantifier: { min: number; max: number } | undefined;
    if (c === '*') quantifier = { min: 0, max: Infinity };
    else if (c === '+') quantifier = { min: 1, max: Infinity };
    else if (c === '?') quantifier = { min: 0, max: 1 };
    if (quantifier) this.pos += 1;
    else if (c === '{') {
      QUANTIFIER.lastIndex = this.pos;
      const match = QUANTIFIER.exec(this.source);
      if (!match) return undefined; // a literal '{' (Annex B)
      this.pos = QUANTIFIER.lastIndex;
      const min = Number(match[1]);
      const max = match[2] === undefined ? min : match[3] === '' ? Infinity : Number(match[3]);
      quantifier = { min, max };
    } else return undefined;
    if (this.peek() === '?') this.pos += 1; // lazy: same strings
    return quantifier;
  }

  private atom(): RegexNode {
    const c = this.peek();
    if (c === '(') return this.group();
    if (c === '[') return this.characterClass();
    if (c === '\\') return this.escape();
    this.pos += 1;
    if (c === '^' || c === '$') return { kind: 'assertion' };
    if (c === '.') return other(dotSet());
    const code = c.charCodeAt(0);
    return code < 128 ? { kind: 'char', char: c.toLowerCase() } : other(singleSet(code));
  }

  private group(): RegexNode {
    const start = this.pos;
    this.pos += 1;
    let lookaround = false;
    if (this.peek() === '?') {
      const next = this.peek(1);
      if (next === ':') this.pos += 2;
      else if (next === '=' || next === '!') {
        this.pos += 2;
        lookaround = true;
      } else if (next === '<' && (this.peek(2) === '=' || this.peek(2) === '!')) {
        this.pos += 3;
        lookaround = true;
      } else if (next === '<') {
        const close = this.source.indexOf('>', this.pos);
        if (close < 0) throw new RegexRefusal('unterminated group name');
        this.pos = close + 1;
        this.captureOpeners.push([start, this.pos]);
      } else throw new RegexRefusal(`unsupported group "(?${next}"`);
    } else this.captureOpeners.push([start, this.pos]);
    const alternatives = this.disjunction();
    if (this.peek() !== ')') throw new RegexRefusal('unterminated group');
    this.pos += 1;
    return { kind: 'group', lookaround, alternatives };
  }

  private characterClass(): RegexNode {
    // In JavaScript the first unescaped ']' closes the class, even right after '[' or '[^'.
    this.pos += 1;
    const start = this.pos;
    while (this.pos < this.source.length && this.peek() !== ']')
      this.pos += this.peek() === '\\' ? 2 : 1;
    if (this.pos >= this.source.length) throw new RegexRefusal('unterminated character class');
    this.pos += 1;
    return other(classSet(this.source, start, this.pos - 1));
  }

  private escape(): RegexNode {
    const c = this.peek(1);
    this.pos += 2;
    if (c === '') throw new RegexRefusal('trailing backslash');
    if (c >= '1' && c <= '9') {
      // A backreference (or, past the group count, a legacy octal escape: no literal either).
      this.hasBackreference = true;
      while (this.peek() >= '0' && this.peek() <= '9') this.pos += 1;
      return { kind: 'backreference' };
    }
    if (c === '0') {
      while (this.peek() >= '0' && this.peek() <= '7') this.pos += 1;
      return ANY;
    }
    if (c === 'k' && this.peek() === '<') {
      const close = this.source.indexOf('>', this.pos);
      if (close < 0) return other(singleSet(107)); // without named groups, `\k` is a 'k'
      this.hasBackreference = true;
      this.pos = close + 1;
      return { kind: 'backreference' };
    }
    if (c === 'b') return { kind: 'boundary' };
    if (c === 'B') return { kind: 'assertion' };
    if (c === 'd') return { kind: 'digit' };
    if (c === 'x' || c === 'u') {
      const hex = c === 'x' ? HEX2 : HEX4;
      hex.lastIndex = this.pos;
      const digits = hex.exec(this.source);
      if (!digits) return other(singleSet(c.charCodeAt(0))); // Annex B: the letter itself
      this.pos = hex.lastIndex;
      return other(singleSet(parseInt(digits[0], 16)));
    }
    if (c === 'c') {
      // '\c' + letter is a control character; otherwise the '\' stands for itself and the
      // 'c' is read again as an ordinary character.
      if (LETTER.test(this.peek())) {
        this.pos += 1;
        return other(singleSet(this.source.charCodeAt(this.pos - 1) % 32));
      }
      this.pos -= 1;
      return other(singleSet(92));
    }
    const classEscape = classEscapeSet(c);
    if (classEscape) return other(classEscape);
    // Other letters stand for controls (or, in Annex B, for themselves): never a literal
    // worth having. An escaped ASCII punctuation character is itself.
    if (LETTER.test(c) || c.charCodeAt(0) >= 128) return ANY;
    return { kind: 'char', char: c };
  }
}

/**
 * Parses a regex source that the engine has accepted (flags `i`, no `u`).
 *
 * @example
 * parseRegex('as an? (?:admin|owner)').alternatives[0].length // 7
 */
export function parseRegex(source: string): ParsedRegex {
  const parser = new Parser(source);
  const alternatives = parser.parse();
  return {
    alternatives,
    hasBackreference: parser.hasBackreference,
    captureOpeners: parser.captureOpeners,
  };
}
