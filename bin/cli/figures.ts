/** How the CLI writes evaluation figures: two decimals, `—` for a figure that does not exist. */

const MINUS = '−';

/**
 * A figure with `digits` decimals, or `—` when there is none (nothing was scored).
 *
 * @example
 * figure(4.2); // '4.20'
 * figure(null); // '—'
 */
export function figure(value: number | null | undefined, digits = 2): string {
  return value === null || value === undefined ? '—' : value.toFixed(digits);
}

/**
 * A signed figure (a gap, a change): `+` or a true minus sign, and no sign when it rounds to
 * zero, so that `−0.00` never appears.
 *
 * @example
 * signed(0.734); // '+0.73'
 * signed(-0.12); // '−0.12'
 * signed(-0.001); // '0.00'
 */
export function signed(value: number | null | undefined, digits = 2): string {
  if (value === null || value === undefined) return '—';
  const magnitude = Math.abs(value).toFixed(digits);
  if (Number(magnitude) === 0) return magnitude;
  return `${value > 0 ? '+' : MINUS}${magnitude}`;
}

/**
 * A share (0…1) as a whole percentage.
 *
 * @example
 * percent(0.923); // '92%'
 */
export function percent(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : `${Math.round(value * 100)}%`;
}

/** Within `threshold`, floating-point noise aside (the core compares the same way). */
export function withinThreshold(value: number, threshold: number): boolean {
  return Math.abs(value) <= threshold + 1e-9;
}
