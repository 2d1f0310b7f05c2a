/** A seeded random source: the same sequence on every machine, so data and failures reproduce. */
export type Random = () => number;

/**
 * mulberry32: tiny, fast, and good enough to make test data (not for anything secret).
 *
 * @example
 * const random = seededRandom(42);
 * random(); // always the same first number for seed 42
 */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One item of `items`, chosen by `random`. */
export const pick = <T>(random: Random, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)]!;
