/** A text or JSON document that may not have been written yet, the document checked whole. */
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
  store: TextStore,
  key: string,
  schema: S,
): Promise<z.output<S> | undefined> {
  const text = await readOptionalText(store, key);
  return text === undefined ? undefined : parseOrThrow(schema, parseJsonText(text, key), key);
}

/** Where text is read by key (the ArtefactStore's `getText`, NotFoundError when none). */
export interface TextStore {
  getText(key: string): Promise<string>;
}

/** The text at `key`; undefined when there is none. */
export async function readOptionalText(store: TextStore, key: string): Promise<string | undefined> {
  try {
    return await store.getText(key);
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}
