import { describe, expect, it } from 'vitest';
import { Arrivals, buildAutomaton, type Automaton } from '../../lambdas/core/cheap/aho-corasick.js';
import { buildAlphabet } from '../../lambdas/core/cheap/alphabet.js';

/** Every (entry, end) the automaton finds in `text`, in order of end. */
function occurrences(automaton: Automaton, text: string): [entry: number, end: number][] {
  const arrivals = new Arrivals();
  const count = automaton.scan(text, arrivals);
  const out: [number, number][] = [];
  for (let i = 0; i < count; i += 1) {
    const state = arrivals.states[i]!;
    for (let k = automaton.outputStart[state]!; k < automaton.outputStart[state + 1]!; k += 1)
      out.push([automaton.outputEntries[k]!, arrivals.ends[i]!]);
  }
  return out;
}

/** The same, found naively with indexOf. */
function naive(strings: readonly string[], text: string): [number, number][] {
  const out: [number, number][] = [];
  strings.forEach((entry, index) => {
    for (let at = text.indexOf(entry); at >= 0; at = text.indexOf(entry, at + 1))
      out.push([index, at + entry.length]);
  });
  return out.sort((a, b) => a[1] - b[1] || a[0] - b[0]);
}

const sorted = (list: [number, number][]) => [...list].sort((a, b) => a[1] - b[1] || a[0] - b[0]);

describe('Function: buildAutomaton', () => {
  it('finds every occurrence of every entry, overlapping ones included', () => {
    // Prepare
    const strings = ['he', 'she', 'his', 'hers', 'e'];
    const automaton = buildAutomaton(strings);

    // Act
    const found = occurrences(automaton, 'ushers his shell');

    // Assess
    expect(sorted(found)).toEqual(naive(strings, 'ushers his shell'));
  });

  it.each([
    ['dense16', {}],
    ['sparse', { maxDenseCells: 0 }],
  ] as const)('agrees with indexOf on random entries and texts (%s)', (form, options) => {
    // Prepare: a tiny alphabet makes overlaps and failure links common.
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const word = (max: number) =>
      Array.from(
        { length: 1 + Math.floor(random() * max) },
        () => 'abc '[Math.floor(random() * 4)],
      ).join('');
    const strings = Array.from({ length: 60 }, () => word(5));
    const automaton = buildAutomaton(strings, options);

    // Act, Assess
    expect(automaton.form).toBe(form);
    for (let n = 0; n < 50; n += 1) {
      const text = word(80);
      expect(sorted(occurrences(automaton, text))).toEqual(naive(strings, text));
    }
  });

  it('reports nothing for characters no entry uses, and grows its buffer for long texts', () => {
    // Prepare
    const automaton = buildAutomaton(['a']);
    const text = 'a'.repeat(1000);

    // Act, Assess
    expect(occurrences(automaton, 'xyz')).toEqual([]);
    expect(occurrences(automaton, text)).toHaveLength(1000);
  });

  it('reports one of two interchangeable entries, sharing a class for their characters', () => {
    // Prepare
    const automaton = buildAutomaton(['x1', 'x2', 'y'], { behaviour: ['d', 'd', 'y'] });

    // Act
    const found = occurrences(automaton, 'x2 x1 y');

    // Assess
    expect(found).toEqual([
      [0, 2],
      [0, 5],
      [2, 7],
    ]);
    expect(automaton.alphabetSize).toBe(4); // unused, x, {1, 2}, y
  });
});

describe('Function: buildAlphabet', () => {
  it('gives every character its own class when entries have no shared behaviour', () => {
    const { size, kept } = buildAlphabet(['ab', 'ba']);
    expect(size).toBe(3);
    expect(kept).toEqual([true, true]);
  });

  it('merges the ten digits of \\d into one class, and keeps one of their entries', () => {
    // Prepare
    const digits = [...'0123456789'];

    // Act
    const { classOf, size, kept } = buildAlphabet(
      [...digits, 'ab'],
      [...digits.map(() => 'r1'), 'k'],
    );

    // Assess
    expect(size).toBe(4);
    expect(new Set(digits.map((digit) => classOf[digit.charCodeAt(0)])).size).toBe(1);
    expect(kept.filter(Boolean)).toHaveLength(2);
  });

  it('does not merge characters that share some entries but not all', () => {
    // "1" appears in an entry "a1" with no "a2" twin.
    const { classOf } = buildAlphabet(['1', '2', 'a1'], ['d', 'd', 'k']);
    expect(classOf['1'.charCodeAt(0)]).not.toBe(classOf['2'.charCodeAt(0)]);
  });
});
