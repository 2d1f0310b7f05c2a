/**
 * An Aho–Corasick automaton over UTF-16 code units: every entry (keyword, phrase, regex
 * literal) of every pattern is found in one left-to-right pass, whatever their number.
 *
 * Usually a full transition table (one array read per character, failure links folded
 * in); when states × alphabet would exceed {@link MAX_DENSE_CELLS}, the trie edges are
 * kept in a map and failure links are followed at scan time instead.
 */
import { buildAlphabet } from './alphabet.js';
import { MAX_DENSE_CELLS } from './constants.js';

/**
 * Where a scan leaves the states at which entries end: `states[i]`, ending at `ends[i]`
 * (exclusive), for `i` below the count `scan` returns. One per caller, reused from scan
 * to scan and grown when a text needs more, so that a scan allocates nothing. Handling
 * the arrivals after the scan, rather than in it, keeps the scan's loop small enough for
 * the compiler to keep tight (a callback inlined into it made every character slower).
 *
 * @example
 * const arrivals = new Arrivals();
 * const count = automaton.scan(text, arrivals); // arrivals.states[0 .. count) and ends
 */
export class Arrivals {
  states = new Int32Array(256);
  ends = new Int32Array(256);

  /** Doubles the capacity, keeping the first `count` arrivals. */
  grow(count: number): void {
    const states = new Int32Array(this.states.length * 2);
    const ends = new Int32Array(this.ends.length * 2);
    states.set(this.states.subarray(0, count));
    ends.set(this.ends.subarray(0, count));
    this.states = states;
    this.ends = ends;
  }
}

/** Records one arrival; returns the new count. */
function arrive(arrivals: Arrivals, count: number, state: number, end: number): number {
  if (count === arrivals.states.length) arrivals.grow(count);
  arrivals.states[count] = state;
  arrivals.ends[count] = end;
  return count + 1;
}

export interface AutomatonOptions {
  /** Cells (states × alphabet) above which the sparse form is used; for tests. */
  readonly maxDenseCells?: number;
  /**
   * What each entry does when found: entries with equal behaviour are interchangeable,
   * which lets their code units share classes (see alphabet.ts). Only one of a set of
   * entries that become identical is reported.
   */
  readonly behaviour?: readonly string[];
}

export interface Automaton {
  /** Which transition representation was built (16- or 32-bit table, or a map). */
  readonly form: 'dense16' | 'dense32' | 'sparse';
  readonly stateCount: number;
  /** Character classes (table columns), the class of unused characters included. */
  readonly alphabetSize: number;
  /** The entries that end at state `s`: `outputEntries[outputStart[s] .. outputStart[s + 1])`. */
  readonly outputStart: Int32Array;
  readonly outputEntries: Int32Array;
  /**
   * Scans `text`, recording each arrival at a state where entries end, in order of end
   * position, into `arrivals`; returns how many there are.
   */
  scan(text: string, arrivals: Arrivals): number;
}

interface Trie {
  /** Per state: character class → child state. */
  children: Map<number, number>[];
  /** Per state: entries that end exactly here. */
  own: number[][];
}

/**
 * Builds the automaton; entry `i` is `strings[i]` (duplicates allowed: each is reported,
 * unless `behaviour` makes them interchangeable).
 *
 * @example
 * const automaton = buildAutomaton(['he', 'she', 'hers']);
 * const arrivals = new Arrivals();
 * automaton.scan('ushers', arrivals); // 2
 * // arrivals.states[0]: the state of "she" (entries 1 and 0), arrivals.ends[0]: 4;
 * // arrivals.states[1]: the state of "hers" (entry 2), arrivals.ends[1]: 6
 */
export function buildAutomaton(
  strings: readonly string[],
  options: AutomatonOptions = {},
): Automaton {
  const { classOf, size: alphabetSize, kept } = buildAlphabet(strings, options.behaviour);
  const trie: Trie = { children: [new Map()], own: [[]] };
  strings.forEach((text, entry) => {
    if (!kept[entry]) return; // its twin, found at the same places, stands for it
    let state = 0;
    for (let i = 0; i < text.length; i += 1) {
      const cls = classOf[text.charCodeAt(i)]!;
      let next = trie.children[state]!.get(cls);
      if (next === undefined) {
        next = trie.children.length;
        trie.children.push(new Map());
        trie.own.push([]);
        trie.children[state]!.set(cls, next);
      }
      state = next;
    }
    trie.own[state]!.push(entry);
  });

  // Breadth-first: failure links, and each state's outputs (its own plus its failure's).
  const stateCount = trie.children.length;
  const fail = new Int32Array(stateCount);
  const outputs: number[][] = new Array<number[]>(stateCount);
  outputs[0] = [];
  const order = [0];
  for (let head = 0; head < order.length; head += 1) {
    const state = order[head]!;
    for (const [cls, child] of trie.children[state]!) {
      let f = fail[state]!;
      let target = 0;
      if (state !== 0) {
        for (;;) {
          const via = trie.children[f]!.get(cls);
          if (via !== undefined) {
            target = via;
            break;
          }
          if (f === 0) break;
          f = fail[f]!;
        }
      }
      fail[child] = target;
      outputs[child] = [...trie.own[child]!, ...outputs[target]!];
      order.push(child);
    }
  }

  const maxDense = options.maxDenseCells ?? MAX_DENSE_CELLS;
  return stateCount * 2 ** Math.ceil(Math.log2(alphabetSize)) <= maxDense
    ? denseAutomaton(classOf, alphabetSize, trie, fail, outputs, order)
    : sparseAutomaton(classOf, alphabetSize, trie, fail, outputs);
}

function flatten(outputs: readonly number[][]) {
  const start = new Int32Array(outputs.length + 1);
  const flat: number[] = [];
  outputs.forEach((list, state) => {
    start[state] = flat.length;
    flat.push(...list);
  });
  start[outputs.length] = flat.length;
  return { start, flat: Int32Array.from(flat) };
}

/** Cells of the dense table: 16 bits while states fit in 15, else 32. */
type Cells = Uint16Array | Int32Array;

function denseAutomaton(
  classOf: Uint16Array,
  alphabetSize: number,
  trie: Trie,
  fail: Int32Array,
  outputs: readonly number[][],
  order: readonly number[],
): Automaton {
  // States are numbered breadth-first, so the shallow states where a scan spends most of
  // its time share cache lines. A cell holds the next state, with a flag bit set when
  // entries end there: one read per character, and one bit test to know whether to look.
  const stateCount = order.length;
  const id = new Int32Array(stateCount);
  order.forEach((state, index) => (id[state] = index));
  const shift = Math.ceil(Math.log2(alphabetSize));
  const small = stateCount <= 0x8000;
  const flag = small ? 0x8000 : 0x40000000;
  const cells: Cells = small
    ? new Uint16Array(stateCount << shift)
    : new Int32Array(stateCount << shift);
  for (const state of order) {
    const row = id[state]! << shift;
    const failRow = id[fail[state]!]! << shift;
    for (let cls = 1; cls < alphabetSize; cls += 1) {
      const child = trie.children[state]!.get(cls);
      if (child !== undefined)
        cells[row + cls] = id[child]! | (outputs[child]!.length > 0 ? flag : 0);
      else if (state !== 0) cells[row + cls] = cells[failRow + cls]!;
    }
  }
  const byId = new Array<number[]>(stateCount);
  order.forEach((state, index) => (byId[index] = outputs[state]!));
  const { start, flat } = flatten(byId);
  // Two copies of the loop, so that each reads one kind of typed array (monomorphic).
  const scan = small
    ? (text: string, arrivals: Arrivals): number => {
        const table = cells as Uint16Array;
        let cell = 0;
        let count = 0;
        for (let i = 0; i < text.length; i += 1) {
          cell = table[((cell & 0x7fff) << shift) | classOf[text.charCodeAt(i)]!]!;
          if (cell & 0x8000) count = arrive(arrivals, count, cell & 0x7fff, i + 1);
        }
        return count;
      }
    : (text: string, arrivals: Arrivals): number => {
        const table = cells as Int32Array;
        let cell = 0;
        let count = 0;
        for (let i = 0; i < text.length; i += 1) {
          cell = table[((cell & 0x3fffffff) << shift) | classOf[text.charCodeAt(i)]!]!;
          if (cell & 0x40000000) count = arrive(arrivals, count, cell & 0x3fffffff, i + 1);
        }
        return count;
      };
  return {
    form: small ? 'dense16' : 'dense32',
    stateCount,
    alphabetSize,
    outputStart: start,
    outputEntries: flat,
    scan,
  };
}

function sparseAutomaton(
  classOf: Uint16Array,
  alphabetSize: number,
  trie: Trie,
  fail: Int32Array,
  outputs: readonly number[][],
): Automaton {
  const edges = new Map<number, number>();
  trie.children.forEach((children, state) => {
    for (const [cls, child] of children) edges.set(state * alphabetSize + cls, child);
  });
  const { start, flat } = flatten(outputs);

  return {
    form: 'sparse',
    stateCount: trie.children.length,
    alphabetSize,
    outputStart: start,
    outputEntries: flat,
    scan(text: string, arrivals: Arrivals): number {
      let state = 0;
      let count = 0;
      for (let i = 0; i < text.length; i += 1) {
        const cls = classOf[text.charCodeAt(i)]!;
        if (cls === 0) {
          state = 0;
          continue;
        }
        for (;;) {
          const child = edges.get(state * alphabetSize + cls);
          if (child !== undefined) {
            state = child;
            break;
          }
          if (state === 0) break;
          state = fail[state]!;
        }
        if (start[state]! < start[state + 1]!) count = arrive(arrivals, count, state, i + 1);
      }
      return count;
    },
  };
}
