import type { z } from 'zod';
import { InvalidInputError } from '../errors.js';
import { knownKeysAt, nearestKey } from './unknown-keys.js';

/** Renders a zod path the way a person reads JSON: `userStories[2].acceptanceCriteria`. */
export function formatZodPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out === '' ? '(root)' : out;
}

/**
 * One line per issue: `userStories[2].acceptanceCriteria: expected array`. An unknown key
 * is a line of its own, and with the `schema` that refused it, names the known key it is
 * nearest to: `gatez: unknown key — did you mean gates?`.
 */
export function formatZodIssues(error: z.ZodError, schema?: z.ZodType): string[] {
  return error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      const known = schema ? knownKeysAt(schema, issue.path) : [];
      return issue.keys.map((key) => {
        const nearest = nearestKey(key, known);
        const hint = nearest ? ` — did you mean ${nearest}?` : '';
        return `${formatZodPath([...issue.path, key])}: unknown key${hint}`;
      });
    }
    const message = issue.message.replace(/^Invalid input: /, '');
    return [`${formatZodPath(issue.path)}: ${message}`];
  });
}

/**
 * Parses `value` with `schema`, throwing {@link InvalidInputError} that names every bad path.
 *
 * @example
 * const prd = parseOrThrow(PrdSchema, JSON.parse(text), 'prd.json');
 */
export function parseOrThrow<S extends z.ZodType>(
  schema: S,
  value: unknown,
  what: string,
): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new InvalidInputError(what, formatZodIssues(result.error, schema));
  return result.data;
}

/** Parses JSON text, reporting a syntax error as invalid input rather than a crash. */
export function parseJsonText(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new InvalidInputError(what, [`(root): not valid JSON (${(error as Error).message})`], {
      cause: error,
    });
  }
}
