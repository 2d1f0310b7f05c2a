/** prd.json as the runner reads it from the working copy. */
import { parseJsonText, parseOrThrow } from '../../lambdas/core/shared/validation.js';
import { PrdSchema, type Prd } from '../../lambdas/core/schemas/prd.js';

/**
 * Validates prd.json but returns the object as written, so that re-serialising keeps its
 * key order (zod would move unknown keys after the known ones).
 */
export function parsePrd(text: string, path: string): Prd {
  const raw = parseJsonText(text, path);
  parseOrThrow(PrdSchema, raw, path);
  return raw as Prd;
}
