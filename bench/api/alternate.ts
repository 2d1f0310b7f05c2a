/** A sampler makes one call and returns its own duration in ms (it may leave set-up untimed). */
export type Sampler = () => Promise<number>;

/**
 * `times` rounds of one call of each sampler, awaited one after the other; the sampler
 * that goes first alternates from round to round. Whatever drifts during the bench (the
 * garbage collector, the other core's load, a store that grows) then falls on both alike,
 * and neither always runs on the other's warm caches.
 *
 * @example
 * const [http, local] = await alternately(200, [() => viaHttpMs(), () => inProcessMs()]);
 */
export async function alternately(
  times: number,
  samplers: readonly [Sampler, Sampler],
): Promise<[number[], number[]]> {
  const durations: [number[], number[]] = [[], []];
  for (let round = 0; round < times; round += 1) {
    const order = round % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const);
    for (const which of order) durations[which].push(await samplers[which]());
  }
  return durations;
}
