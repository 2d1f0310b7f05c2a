import { InvalidInputError } from '../errors.js';

const UNIT_MS = {
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
} as const;

/**
 * An age such as `30d`: a whole number and one unit (s, m, h, d, w), in milliseconds.
 *
 * @example
 * parseDuration('12h', '--older-than'); // 43_200_000
 */
export function parseDuration(text: string, what: string): number {
  const match = /^(\d+)([smhdw])$/.exec(text.trim());
  const ms = match ? Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS] : NaN;
  if (!Number.isSafeInteger(ms))
    throw new InvalidInputError(what, [
      `"${text}" is not a duration: a whole number and a unit, s m h d or w (30d, 12h, 2w, 0s)`,
    ]);
  return ms;
}
