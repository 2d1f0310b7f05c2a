/**
 * A value fetched on first use and kept for the process's life (a Lambda container's), where
 * a failed fetch is not kept, so the next use tries again: one passing outage of a service
 * must not poison a warm container until it is recycled.
 *
 * @example
 * const apiKey = keptUntilFailure(() => readSecretString(secrets, secretId, 'API key'));
 * await apiKey(); // reads the secret
 * await apiKey(); // the same promise
 */
export function keptUntilFailure<T>(fetch: () => Promise<T>): () => Promise<T> {
  let kept: Promise<T> | undefined;
  return () => {
    kept ??= fetch().catch((error: unknown) => {
      kept = undefined;
      throw error;
    });
    return kept;
  };
}
