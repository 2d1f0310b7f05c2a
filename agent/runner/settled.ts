/**
 * Work started early and awaited later, as a value: the stage that awaits it decides what
 * its failure means, and meanwhile the failure cannot surface as an unhandled rejection.
 */

/**
 * The promise's outcome, never a rejection.
 *
 * @example
 * const claiming = settle(runs.claimIteration(runId, n, now)); // runs while the run is read
 * const record = unwrap(await claiming); // its error, if any, thrown here
 */
export function settle<T>(promise: Promise<T>): Promise<PromiseSettledResult<T>> {
  return promise.then(
    (value) => ({ status: 'fulfilled', value }),
    (reason: unknown) => ({ status: 'rejected', reason }),
  );
}

/** The settled promise's value; its error, thrown. */
export function unwrap<T>(settled: PromiseSettledResult<T>): T {
  if (settled.status === 'rejected') throw settled.reason;
  return settled.value;
}
