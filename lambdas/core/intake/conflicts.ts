import { VersionConflictError } from '../errors.js';

/**
 * Each lost race (VersionConflictError) means another writer made progress, so a read-then-
 * write that lost is done again from a fresh read, after a short random pause (full jitter,
 * doubling up to a cap) so that a crowd of writers on one item spreads out; bounded, so a
 * storm ends in the error (a hook answers 503, and the sender retries) rather than a loop.
 */
export const MAX_CONFLICT_RETRIES = 25;
const BASE_PAUSE_MS = 5;
const MAX_PAUSE_MS = 250;

/**
 * @example
 * await retryOnConflict(async () => {
 *   const group = await store.getGroup(key);
 *   return store.saveGroup(change(group), group.version);
 * });
 */
export async function retryOnConflict<T>(
  attempt: () => Promise<T>,
  attempts = MAX_CONFLICT_RETRIES,
): Promise<T> {
  for (let tried = 1; ; tried += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof VersionConflictError) || tried >= attempts) throw error;
    }
    const cap = Math.min(MAX_PAUSE_MS, BASE_PAUSE_MS * 2 ** tried);
    await new Promise((resolve) => setTimeout(resolve, Math.random() * cap));
  }
}
