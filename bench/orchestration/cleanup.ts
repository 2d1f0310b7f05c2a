/**
 * What the bench must undo (stacks, emulators, temporary repositories), also when it is
 * interrupted: the entry point runs whatever is pending on SIGINT.
 */

const cleanups = new Set<() => Promise<void>>();

/** Runs `body`, then `cleanup`; until then an interruption runs `cleanup` too. */
export async function withCleanup<T>(
  cleanup: () => Promise<void>,
  body: () => Promise<T>,
): Promise<T> {
  cleanups.add(cleanup);
  try {
    return await body();
  } finally {
    cleanups.delete(cleanup);
    await cleanup();
  }
}

/** Runs every cleanup still pending, side by side. */
export function runPendingCleanups(): Promise<PromiseSettledResult<void>[]> {
  return Promise.allSettled([...cleanups].map((cleanup) => cleanup()));
}
