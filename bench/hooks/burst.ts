/**
 * The concurrent burst: `count` deliveries with `inFlight` of them in flight at once, as a
 * sender with a backlog posts them; deliveries per second from the wall clock, and the
 * main thread's busy time (its event loop: the server, the router, the handler, the SDK
 * clients; the emulators run on their own worker thread).
 */
import { performance } from 'node:perf_hooks';
import type { Sampler } from '../api/alternate.js';

export interface BurstFigures {
  deliveries: number;
  inFlight: number;
  wallMs: number;
  /** Each delivery's own duration, in ms. */
  latencies: number[];
  /** The main thread's event loop busy over the burst. */
  mainThreadBusyMs: number;
}

/**
 * Runs `task(i)` for i in 0..count−1, never more than `width` at once, starting the next as
 * soon as one ends; the results in the order of i. After a task fails no other starts, and
 * the first failure is thrown once those in flight have ended (nothing runs on behind it
 * while the caller cleans up).
 *
 * @example
 * await inFlight(200, 8, (i) => post(i));
 */
export async function inFlight<T>(
  count: number,
  width: number,
  task: (index: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = new Array<T>(count);
  const failures: unknown[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count && failures.length === 0) {
      const index = next;
      next += 1;
      try {
        results[index] = await task(index);
      } catch (error) {
        failures.push(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, count) }, worker));
  if (failures.length > 0) throw failures[0];
  return results;
}

/** `count` calls of `sampler` (each returns its own duration), `width` in flight. */
export async function burst(count: number, width: number, sampler: Sampler): Promise<BurstFigures> {
  const loop = performance.eventLoopUtilization();
  const start = performance.now();
  const latencies = await inFlight(count, width, () => sampler());
  const wallMs = performance.now() - start;
  const busy = performance.eventLoopUtilization(loop);
  return { deliveries: count, inFlight: width, wallMs, latencies, mainThreadBusyMs: busy.active };
}
