import { VersionConflictError } from '../errors.js';

/**
 * Each lost race (VersionConflictError) means another writer made progress, so a read-then-
 * write that lost is simply done again from a fresh read; bounded, so a storm of writers
 * ends in the error (a hook answers 503, and the sender retries) rather than in a loop.
 */
export const MAX_CONFLICT_RETRIES = 25;

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
  }
}
