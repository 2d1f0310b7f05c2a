/**
 * The automaton's alphabet: code units grouped into classes, one table column per class.
 *
 * Fewer columns mean a smaller table, and the table's size decides the scan's speed (it
 * must stay in cache). So two code units share a class when they are interchangeable:
 * every entry that holds one has a twin, with the same behaviour, that holds the other in
 * the same places. The ten one-digit literals of `\d` become one class this way, and so
 * one column instead of ten. Entries that become identical are then kept once.
 */

export interface Alphabet {
  /** Code unit → class; 0 for every unit no entry uses (it always leads back to the root). */
  readonly classOf: Uint16Array;
  /** Number of classes, 0 included. */
  readonly size: number;
  /** Per entry: false for an entry identical to an earlier one once units are classes. */
  readonly kept: readonly boolean[];
}

/**
 * Builds the alphabet of `strings`. `behaviour[i]` says what entry i does when found:
 * entries with equal behaviour are interchangeable. Without it, every entry is distinct
 * and every code unit used gets its own class.
 *
 * @example
 * const { size, kept } = buildAlphabet(['1', '2', 'ab'], ['digit', 'digit', 'word']);
 * // size 4 (unused, {1, 2}, a, b); kept [true, false, true]
 */
export function buildAlphabet(strings: readonly string[], behaviour?: readonly string[]): Alphabet {
  // Signature of a unit: every (behaviour, entry with that unit blanked out) it appears in.
  const uses = new Map<number, string[]>();
  strings.forEach((text, entry) => {
    const key = behaviour?.[entry] ?? `#${entry}`;
    const units = Array.from(text, (_, i) => text.charCodeAt(i));
    for (const unit of new Set(units)) {
      const template = units.map((other) => (other === unit ? -1 : other)).join(',');
      let list = uses.get(unit);
      if (!list) uses.set(unit, (list = []));
      list.push(`${key}\u0000${template}`);
    }
  });

  const classOf = new Uint16Array(0x10000);
  const classBySignature = new Map<string, number>();
  for (const [unit, list] of uses) {
    const signature = list.sort().join('\u0001');
    let cls = classBySignature.get(signature);
    if (cls === undefined) classBySignature.set(signature, (cls = classBySignature.size + 1));
    classOf[unit] = cls;
  }

  const seen = new Set<string>();
  const kept = strings.map((text, entry) => {
    const classes = Array.from(text, (_, i) => classOf[text.charCodeAt(i)]).join(',');
    const key = `${behaviour?.[entry] ?? `#${entry}`}\u0000${classes}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { classOf, size: classBySignature.size + 1, kept };
}
