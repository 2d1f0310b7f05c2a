/**
 * Threshold comparisons with a tolerance. Scores are decimals and their differences carry
 * floating-point noise (1.1 − 0.6 = 0.5000000000000001), which must not decide a boundary:
 * a value within {@link EPSILON} of a limit counts as equal to it.
 */

/** Differences smaller than this are noise. */
export const EPSILON = 1e-9;

/**
 * `value > limit`, noise aside.
 *
 * @example
 * exceeds(1.1 - 0.6, 0.5); // false
 */
export function exceeds(value: number, limit: number): boolean {
  return value - limit > EPSILON;
}

/**
 * `value < limit`, noise aside.
 *
 * @example
 * fallsBelow(3.9999999999999996, 4); // false
 */
export function fallsBelow(value: number, limit: number): boolean {
  return limit - value > EPSILON;
}

/**
 * `value ≥ limit`, noise aside.
 *
 * @example
 * atLeast(0.7, 7 / 10); // true
 */
export function atLeast(value: number, limit: number): boolean {
  return !fallsBelow(value, limit);
}

/**
 * `value ≤ limit`, noise aside.
 *
 * @example
 * atMost(1.1 - 0.6, 0.5); // true
 */
export function atMost(value: number, limit: number): boolean {
  return !exceeds(value, limit);
}

/**
 * `a = b`, noise aside.
 *
 * @example
 * nearlyEqual(0.1 + 0.2, 0.3); // true
 */
export function nearlyEqual(a: number, b: number): boolean {
  return Math.abs(a - b) <= EPSILON;
}
