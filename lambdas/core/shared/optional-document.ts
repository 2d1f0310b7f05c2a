/** A JSON document that may not have been written yet, read and checked whole. */
import type { z } from 'zod';
import { NotFoundError } from '../errors.js';
import { parseJsonText, parseOrThrow } from './validation.js';

/**
 * The document at `key`, validated; undefined when there is none. A document that is there
 * but unreadable is InvalidInputError naming the key and the zod paths.
 *
 * @example
 * const report = await readOptionalDocument(artefacts, key, RunLearningReportSchema);
 */
export async function readOptionalDocument<S extends z.ZodType>(
  store: { getText(key: string): Promise<string> },
  key: string,
  schema: S,
): Promise<z.output<S> | undefined> {
  let text: string;
  try {
    text = await store.getText(key);
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
  return parseOrThrow(schema, parseJsonText(text, key), key);
}
