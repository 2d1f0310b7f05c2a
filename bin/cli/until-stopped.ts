/** Resolves on SIGINT or SIGTERM, after `onStop` (synchronous: the process may exit next). */
export function untilStopped(onStop: () => void = () => undefined): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      onStop();
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
