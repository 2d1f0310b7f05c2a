/** The local sharing state's JSON files, read with their schema. */
import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { parseJsonText, parseOrThrow } from '../../core/shared/validation.js';

/** A JSON file read with its schema; absent, `empty`. */
export async function readJsonFile<S extends z.ZodType>(
  path: string,
  schema: S,
  empty: z.output<S>,
): Promise<z.output<S>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return empty;
    throw error;
  }
  return parseOrThrow(schema, parseJsonText(text, path), path);
}
