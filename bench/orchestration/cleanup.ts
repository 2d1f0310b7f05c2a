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

/**
 * Runs a bench's `main`: Ctrl-C cleans up what it started (temporary stacks, directories)
 * before exiting 130, and a failure prints its stack and exits 1.
 */
export function runBench(main: () => Promise<void>): void {
  let interrupted = false;
  process.once('SIGINT', () => {
    interrupted = true;
    process.stderr.write('interrupted: cleaning up…\n');
    void runPendingCleanups().then(() => process.exit(130));
  });
  main().then(
    () => {
      if (!interrupted) process.exitCode = 0;
    },
    (error: unknown) => {
      process.stderr.write(
        `bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exitCode = 1;
    },
  );
}
