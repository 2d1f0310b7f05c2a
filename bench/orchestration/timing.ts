/** `fn` called `times` times in a row, each awaited: each call's duration in ms. */
export async function timeEach(times: number, fn: () => Promise<unknown>): Promise<number[]> {
  const durations: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const start = performance.now();
    await fn();
    durations.push(performance.now() - start);
  }
  return durations;
}
