/**
 * The patterns fired in one run, one bit each: firing and testing cost a bit operation,
 * and reading them out in ascending order (as results list them) costs less than sorting
 * a list. Reading clears the bits, ready for the next run.
 */
export class FiredSet {
  private readonly bits: Uint32Array;
  private readonly sorted: Int32Array;

  constructor(size: number) {
    this.bits = new Uint32Array(Math.ceil(size / 32));
    this.sorted = new Int32Array(size);
  }

  add(pattern: number): void {
    this.bits[pattern >>> 5]! |= 1 << (pattern & 31);
  }

  has(pattern: number): boolean {
    return (this.bits[pattern >>> 5]! & (1 << (pattern & 31))) !== 0;
  }

  /** Whether some of these patterns have not fired. */
  anyMissing(patterns: Int32Array): boolean {
    for (let i = 0; i < patterns.length; i += 1) if (!this.has(patterns[i]!)) return true;
    return false;
  }

  /**
   * The fired patterns, ascending, and clears the set. The array is reused by the next
   * call: read it first.
   *
   * @example
   * const fired = new FiredSet(100);
   * fired.add(40);
   * fired.add(3);
   * fired.drain(); // Int32Array [3, 40]
   */
  drain(): Int32Array {
    const { bits, sorted } = this;
    let count = 0;
    for (let word = 0; word < bits.length; word += 1) {
      let rest = bits[word]!;
      if (rest === 0) continue;
      bits[word] = 0;
      while (rest !== 0) {
        const lowest = rest & -rest;
        sorted[count++] = (word << 5) + 31 - Math.clz32(lowest);
        rest ^= lowest;
      }
    }
    return sorted.subarray(0, count);
  }
}
