/** What a v1 value is, in the words of the migration report. */

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'object') return 'object';
  return typeof value;
}

/**
 * `null`, an empty or blank string, an empty list or an empty object: a value that holds
 * nothing to migrate, described; undefined for anything else.
 *
 * @example
 * emptyValue([]); // 'an empty list'
 * emptyValue(0); // undefined
 */
export function emptyValue(value: unknown): string | undefined {
  if (value === null) return 'null';
  if (typeof value === 'string' && value.trim() === '') return 'an empty string';
  if (Array.isArray(value)) return value.length === 0 ? 'an empty list' : undefined;
  if (typeof value === 'object' && Object.keys(value as object).length === 0)
    return 'an empty object';
  return undefined;
}

/**
 * A short description of a JSON value: `the number 8`, `true`, `a list of 2 numbers and 1
 * string`, `an object with 3 fields`.
 *
 * @example
 * describeValue([3, 'x', 7]); // 'a list of 2 numbers and 1 string'
 */
export function describeValue(value: unknown): string {
  const empty = emptyValue(value);
  if (empty !== undefined) return empty;
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return `the number ${value}`;
  if (typeof value === 'string') return 'a string';
  if (Array.isArray(value)) {
    const counts = new Map<string, number>();
    for (const item of value) counts.set(kindOf(item), (counts.get(kindOf(item)) ?? 0) + 1);
    const parts = [...counts].map(([kind, count]) => plural(count, kind));
    const last = parts.pop()!;
    return `a list of ${parts.length > 0 ? `${parts.join(', ')} and ${last}` : last}`;
  }
  return `an object with ${plural(Object.keys(value as object).length, 'field')}`;
}
